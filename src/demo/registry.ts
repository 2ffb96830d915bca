// The demo registry: the real metadata tree with a generated, deterministic overlay, so a fresh devnet serves
// plausible vaults (most approved, a mix of types, real token addresses as collateral) with no input.
import type { Address } from "viem";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { storeRegistry } from "../registry/importer.ts";
import {
  MetadataTreeError,
  readMetadataTree,
  readTreeTokens,
  type TreeToken,
} from "../registry/metadata-tree.ts";
import type { Overlay } from "../registry/overlay.ts";
import type { TreeVault, VaultOnChain } from "../registry/registry.ts";
import { isRegistryEmpty, readVaultAddresses } from "../registry/repository.ts";
import type { VaultType } from "../registry/schemas.ts";
import { mulberry32 } from "../shared/seeded-random.ts";

export const DEMO_OVERLAY_SEED = 0x5c1ce;
const APPROVED_SHARE = 0.85;
const WEI_PER_TOKEN = 10n ** 18n;

export interface DemoOverlayInput {
  vaults: readonly Pick<TreeVault, "address" | "meta">[];
  tokens: readonly TreeToken[];
  seed?: number;
}

/**
 * A deterministic overlay for the given vaults: the same vaults, tokens and seed always give the same
 * overlay. Legacy vaults (tag `legacy`) are `pre-deposit`; a `token:<symbol>` tag picks that token as
 * collateral when the tree has it.
 */
export function generateDemoOverlay({ vaults, tokens, seed = DEMO_OVERLAY_SEED }: DemoOverlayInput): Overlay {
  if (tokens.length === 0)
    throw new MetadataTreeError("the tree has no tokens/ to draw demo collateral from");
  const random = mulberry32(seed);
  const tokensBySymbol = new Map(
    tokens.flatMap((token) => (token.name ? [[token.name.toLowerCase(), token] as const] : [])),
  );
  const overlay = new Map<Address, VaultOnChain>();

  for (const vault of [...vaults].sort((a, b) => (a.address < b.address ? -1 : 1))) {
    const tags = (vault.meta.tags ?? []).map((tag) => tag.toLowerCase());
    // Every draw happens for every vault, so one vault's tags never shift another vault's values.
    const approvedDraw = random();
    const typeDraw = random();
    const tokenDraw = random();
    const supplyMagnitude = random();
    const supplyFraction = random();
    const priceDraw = random();

    const symbol = tags.find((tag) => tag.startsWith("token:"))?.slice("token:".length);
    const collateral =
      (symbol && tokensBySymbol.get(symbol)) || tokens[Math.floor(tokenDraw * tokens.length)]!;
    const wholeTokens = Math.floor(10 ** (1 + supplyMagnitude * 6));
    const totalSupply =
      BigInt(wholeTokens) * WEI_PER_TOKEN + BigInt(Math.floor(supplyFraction * 1e9)) * 10n ** 9n;
    const price = 0.5 + priceDraw * 3999.5;

    overlay.set(vault.address, {
      vaultType: tags.includes("legacy") ? "pre-deposit" : pickVaultType(typeDraw),
      collateral: collateral.address,
      totalSupply,
      tvl: Math.round(wholeTokens * price * 100) / 100,
      approved: approvedDraw < APPROVED_SHARE,
    });
  }
  return overlay;
}

function pickVaultType(draw: number): VaultType {
  if (draw < 0.1) return "pre-deposit";
  return draw < 0.55 ? "v1" : "v2";
}

/** Reads a tree and builds its demo overlay (what `scripts/demo-overlay.ts` prints). */
export async function demoOverlayForTree(registryDir: string, seed?: number): Promise<Overlay> {
  const [{ tree }, tokens] = await Promise.all([readMetadataTree(registryDir), readTreeTokens(registryDir)]);
  return generateDemoOverlay({ vaults: tree.vaults, tokens, ...(seed !== undefined ? { seed } : {}) });
}

/**
 * Imports the tree with a demo overlay when the registry is empty; leaves an existing registry alone.
 * Returns every stored vault address, approved or not.
 */
export async function seedDemoRegistry(
  database: Database,
  options: { registryDir: string; iconBaseUrl?: string; logger: Logger },
): Promise<{ vaults: Address[] }> {
  if (await isRegistryEmpty(database)) {
    const [read, tokens] = await Promise.all([
      readMetadataTree(options.registryDir, options.iconBaseUrl ? { iconBaseUrl: options.iconBaseUrl } : {}),
      readTreeTokens(options.registryDir),
    ]);
    const overlay = generateDemoOverlay({ vaults: read.tree.vaults, tokens });
    const report = await storeRegistry(database, read, overlay);
    options.logger.info(
      {
        registryDir: options.registryDir,
        networks: report.kinds.networks.imported,
        operators: report.kinds.operators.imported,
        vaults: report.kinds.vaults.imported,
        approvedVaults: report.overlay.approved,
        curators: report.kinds.curators.imported,
      },
      "demo registry imported",
    );
  }
  return { vaults: await readVaultAddresses(database) };
}

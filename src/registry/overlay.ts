// The overlay file: the on-chain fields of vaults (type, collateral, total supply, TVL) and whether each is
// approved, keyed by vault address. The metadata tree does not carry these, so an import needs both.
import { readFile } from "node:fs/promises";
import type { Address } from "viem";
import { z } from "zod";
import { AddressSchema, Uint256StringSchema } from "../shared/wire.ts";
import type { VaultOnChain } from "./registry.ts";
import { VaultTypeSchema } from "./schemas.ts";

const ADDRESS_KEY = /^0x[a-fA-F0-9]{40}$/;

export const VaultOverlaySchema = z
  .object({
    vaultType: VaultTypeSchema,
    collateral: AddressSchema,
    totalSupply: Uint256StringSchema,
    tvl: z.number().nonnegative(),
    approved: z.boolean(),
  })
  .strict();

export const OverlayFileSchema = z
  .object({
    vaults: z
      .record(z.string().regex(ADDRESS_KEY), VaultOverlaySchema, {
        error: (issue) =>
          issue.code === "invalid_key"
            ? "key must be a vault address (0x followed by 40 hex characters)"
            : undefined,
      })
      .superRefine((vaults, ctx) => {
        // Keys are compared case-insensitively, so two spellings of one address are one vault twice.
        const seen = new Map<string, string>();
        for (const key of Object.keys(vaults)) {
          const first = seen.get(key.toLowerCase());
          if (first !== undefined)
            ctx.addIssue({ code: "custom", path: [key], message: `same vault as ${first}` });
          seen.set(key.toLowerCase(), key);
        }
      }),
  })
  .strict();

export type OverlayFile = z.input<typeof OverlayFileSchema>;

/** The overlay after validation: on-chain data by lowercased vault address. */
export type Overlay = ReadonlyMap<Address, VaultOnChain>;

export class InvalidOverlayError extends Error {
  override name = "InvalidOverlayError";
}

export function parseOverlay(value: unknown, source = "overlay"): Overlay {
  const parsed = OverlayFileSchema.safeParse(value);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`,
    );
    throw new InvalidOverlayError(`Invalid ${source}: ${reasons.join("; ")}`);
  }
  const overlay = new Map<Address, VaultOnChain>();
  for (const [address, vault] of Object.entries(parsed.data.vaults)) {
    overlay.set(address.toLowerCase() as Address, {
      vaultType: vault.vaultType,
      collateral: vault.collateral as Address,
      totalSupply: BigInt(vault.totalSupply),
      tvl: vault.tvl,
      approved: vault.approved,
    });
  }
  return overlay;
}

export async function readOverlayFile(path: string): Promise<Overlay> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InvalidOverlayError(`Cannot read overlay file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidOverlayError(`Invalid overlay file ${path}: not JSON (${(error as Error).message})`);
  }
  return parseOverlay(json, `overlay file ${path}`);
}

/** The file form of an overlay, e.g. to print one; addresses lowercase, sorted. */
export function overlayToFile(overlay: Overlay): OverlayFile {
  const vaults: OverlayFile["vaults"] = {};
  for (const address of [...overlay.keys()].sort()) {
    const vault = overlay.get(address)!;
    vaults[address] = {
      vaultType: vault.vaultType,
      collateral: vault.collateral,
      totalSupply: vault.totalSupply.toString(),
      tvl: vault.tvl,
      approved: vault.approved,
    };
  }
  return { vaults };
}

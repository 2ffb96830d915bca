import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { readGeneration } from "../../src/db/generations.ts";
import { generateDemoOverlay, seedDemoRegistry } from "../../src/demo/registry.ts";
import { silentLogger } from "../../src/logger.ts";
import { readMetadataTree, readTreeTokens, type TreeToken } from "../../src/registry/metadata-tree.ts";
import { overlayToFile, parseOverlay } from "../../src/registry/overlay.ts";
import type { TreeVault } from "../../src/registry/registry.ts";
import { readApprovedVaults, readVaultAddresses } from "../../src/registry/repository.ts";
import { FIXTURE_TREE, writeTree } from "../registry/support.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { importRegistry } from "../support/registry.ts";

describe("demo overlay", () => {
  let vaults: TreeVault[];
  let tokens: TreeToken[];

  beforeAll(async () => {
    vaults = (await readMetadataTree(FIXTURE_TREE)).tree.vaults;
    tokens = await readTreeTokens(FIXTURE_TREE);
  });

  it("is deterministic for a seed and differs between seeds", () => {
    const first = generateDemoOverlay({ vaults, tokens });
    expect(generateDemoOverlay({ vaults: [...vaults].reverse(), tokens })).toEqual(first);
    expect(generateDemoOverlay({ vaults, tokens, seed: 2 })).not.toEqual(first);
  });

  it("covers every vault with valid, plausible on-chain data", () => {
    const overlay = generateDemoOverlay({ vaults, tokens });
    expect(overlay.size).toBe(vaults.length);
    // Its file form passes the same validation as a hand-written overlay.
    expect(parseOverlay(JSON.parse(JSON.stringify(overlayToFile(overlay))))).toEqual(overlay);

    const entries = [...overlay.values()];
    const approvedShare = entries.filter((v) => v.approved).length / entries.length;
    expect(approvedShare).toBeGreaterThan(0.75);
    expect(approvedShare).toBeLessThan(0.95);
    for (const type of ["pre-deposit", "v1", "v2"])
      expect(entries.some((v) => v.vaultType === type)).toBe(true);
    const tokenAddresses = new Set(tokens.map((t) => t.address));
    for (const vault of entries) {
      expect(tokenAddresses.has(vault.collateral)).toBe(true);
      expect(vault.totalSupply).toBeGreaterThanOrEqual(10n ** 18n);
      expect(vault.totalSupply % 10n ** 9n).toBe(0n);
      expect(Number.isFinite(vault.tvl) && vault.tvl > 0).toBe(true);
    }
  });

  it("makes legacy vaults pre-deposit and takes collateral from a token:<symbol> tag", () => {
    const overlay = generateDemoOverlay({ vaults, tokens });
    const legacy = vaults.filter((v) => v.meta.tags?.includes("legacy"));
    expect(legacy.length).toBe(19);
    for (const vault of legacy) expect(overlay.get(vault.address)?.vaultType).toBe("pre-deposit");
    const lbtc = tokens.find((t) => t.name === "LBTC")!;
    const lbtcVaults = vaults.filter((v) => v.meta.tags?.includes("token:LBTC"));
    expect(lbtcVaults.length).toBeGreaterThan(0);
    for (const vault of lbtcVaults) expect(overlay.get(vault.address)?.collateral).toBe(lbtc.address);
  });

  it("needs tokens to draw collateral from", () => {
    expect(() => generateDemoOverlay({ vaults, tokens: [] })).toThrow(/no tokens/);
  });
});

describe.each(databaseKinds)("seedDemoRegistry on %s", (kind) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("imports the tree with the demo overlay into an empty registry", async () => {
    const { vaults } = await seedDemoRegistry(database, {
      registryDir: FIXTURE_TREE,
      iconBaseUrl: "https://icons.example.org",
      logger: silentLogger(),
    });
    expect(vaults).toHaveLength(159);
    expect(vaults).toContain("0x007e0b8e99c6134e81a1eaae754460e3202cb671");
    const approved = await readApprovedVaults(database);
    expect(approved.length).toBeGreaterThan(120);
    expect(approved.length).toBeLessThan(159);
    expect(approved[0]?.meta.icon).toMatch(
      /^https:\/\/icons\.example\.org\/vaults\/0x[0-9a-fA-F]{40}\/logo\.png$/,
    );
    expect(await readGeneration(database, "registry")).toBe(1);
  });

  it("leaves an existing registry alone and returns all of its vaults", async () => {
    const small = writeTree({
      "vaults/0x5555555555555555555555555555555555555555/info.json": { name: "Only vault" },
      "tokens/0x8236a87084f8b84306f72007f36f2618a5634494/info.json": { name: "LBTC" },
    });
    try {
      await importRegistry(database, { registryDir: small.dir, overlay: new Map() });
      const generation = await readGeneration(database, "registry");
      const { vaults } = await seedDemoRegistry(database, {
        registryDir: FIXTURE_TREE,
        logger: silentLogger(),
      });
      // Unapproved vaults count too: points may reference any stored vault.
      expect(vaults).toEqual(["0x5555555555555555555555555555555555555555"]);
      expect(await readVaultAddresses(database)).toEqual(vaults);
      expect(await readGeneration(database, "registry")).toBe(generation);
    } finally {
      small.remove();
    }
  });
});

// Adding entries beside a stored registry (the devnet's own networks, operators, curator and vaults): only the
// missing ones are written, a stored entry with the same key is left as it was, the generation moves only when
// something was added, and the demo registry still loads first into an empty database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { readGeneration } from "../../src/db/generations.ts";
import { pointsPlan } from "../../src/devnet/points-plan.ts";
import { devnetPointsRegistry } from "../../src/devnet/points-registry.ts";
import {
  addMissingRegistryEntries,
  readApprovedVaults,
  readCurators,
  readNetworks,
  readOperators,
} from "../../src/registry/repository.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

describe.each(databaseKinds)("addMissingRegistryEntries (%s)", (kind) => {
  let database: Database;
  const entries = devnetPointsRegistry(pointsPlan());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("adds every missing entry once, and nothing on a second call", async () => {
    const generation = await readGeneration(database, "registry");
    expect(await addMissingRegistryEntries(database, entries)).toBe(2 + 3 + 1 + 3);
    expect(await readGeneration(database, "registry")).toBeGreaterThan(generation);
    expect((await readNetworks(database)).map((n) => n.meta.name)).toEqual(
      expect.arrayContaining(["Devnet Network A", "Devnet Network B"]),
    );
    expect(await readOperators(database)).toHaveLength(3);
    const vaults = await readApprovedVaults(database);
    expect(vaults.map((v) => v.address).sort()).toEqual(entries.vaults.map((v) => v.address).sort());
    expect((await readCurators(database)).find((c) => c.id === "sluice-devnet")?.vaults).toHaveLength(3);

    const after = await readGeneration(database, "registry");
    expect(await addMissingRegistryEntries(database, entries)).toBe(0);
    expect(await readGeneration(database, "registry")).toBe(after);
  });

  it("leaves a stored entry with the same key as it was", async () => {
    const renamed = {
      ...entries,
      networks: entries.networks.map((n) => ({ ...n, meta: { ...n.meta, name: "renamed" } })),
    };
    expect(await addMissingRegistryEntries(database, renamed)).toBe(0);
    expect((await readNetworks(database)).map((n) => n.meta.name)).not.toContain("renamed");
  });
});

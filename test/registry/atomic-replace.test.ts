// A re-import replaces the registry atomically: concurrent readers see the old or the new registry, never
// a mix or an empty one. Concurrency needs real connections, so this runs on PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { applyOverlay } from "../../src/registry/importer.ts";
import { readMetadataTree } from "../../src/registry/metadata-tree.ts";
import { PreparedJson } from "../../src/registry/prepared-json.ts";
import type { Registry } from "../../src/registry/registry.ts";
import {
  readApprovedVaults,
  readCurators,
  readNetworks,
  readOperators,
  replaceRegistry,
} from "../../src/registry/repository.ts";
import {
  PartnerCuratorListSchema,
  PartnerEntityListSchema,
  PartnerVaultListSchema,
} from "../../src/registry/schemas.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";
import { FIXTURE_TREE, fixtureOverlay } from "./support.ts";

const ROUNDS = 8;
const READERS = 6;

/** Registry B differs from A in every table: renamed entries and another overlay. */
async function twoRegistries(): Promise<[Registry, Registry]> {
  const read = await readMetadataTree(FIXTURE_TREE);
  const a = applyOverlay(read.tree, await fixtureOverlay(1), read.report).registry;
  const b = applyOverlay(read.tree, await fixtureOverlay(2), read.report).registry;
  const rename = <T extends { meta: { name: string } }>(entries: T[]) =>
    entries.map((entry) => ({ ...entry, meta: { ...entry.meta, name: `${entry.meta.name} (B)` } }));
  return [
    a,
    {
      networks: rename(b.networks),
      operators: rename(b.operators),
      curators: rename(b.curators),
      vaults: rename(b.vaults),
    },
  ];
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("atomic registry replace on postgres", () => {
  let database: Database;
  let app: App;
  const clock = new ManualClock();
  let registries: [Registry, Registry];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    ({ app } = await createTestServer(database, { clock }));
    registries = await twoRegistries();
    await replaceRegistry(database, registries[0]);
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** Which registry a snapshot of one endpoint belongs to: "A", "B", or a description of the mix. */
  async function expectedSnapshots() {
    const snapshots: Record<"A" | "B", string[]> = { A: [], B: [] };
    for (const [index, label] of [
      [0, "A"],
      [1, "B"],
    ] as const) {
      await replaceRegistry(database, registries[index]);
      // The exact bytes the endpoints serve for this registry.
      snapshots[label] = [
        PreparedJson.of(PartnerEntityListSchema, await readNetworks(database)).text,
        PreparedJson.of(PartnerEntityListSchema, await readOperators(database)).text,
        PreparedJson.of(PartnerVaultListSchema, await readApprovedVaults(database)).text,
        PreparedJson.of(PartnerCuratorListSchema, await readCurators(database)).text,
      ];
    }
    expect(snapshots.A).not.toEqual(snapshots.B);
    return snapshots;
  }

  it("readers of the repository only ever see the old or the new registry", async () => {
    const snapshots = await expectedSnapshots();
    const reads = [
      async () => PreparedJson.of(PartnerEntityListSchema, await readNetworks(database)).text,
      async () => PreparedJson.of(PartnerEntityListSchema, await readOperators(database)).text,
      async () => PreparedJson.of(PartnerVaultListSchema, await readApprovedVaults(database)).text,
      async () => PreparedJson.of(PartnerCuratorListSchema, await readCurators(database)).text,
    ];
    let writing = true;
    const seen: string[] = [];

    const writer = (async () => {
      try {
        for (let round = 0; round < ROUNDS; round += 1)
          await replaceRegistry(database, registries[round % 2]!);
      } finally {
        writing = false;
      }
    })();
    const readers = Array.from({ length: READERS }, async (_, reader) => {
      const endpoint = reader % reads.length;
      do {
        const snapshot = await reads[endpoint]!();
        if (snapshot === snapshots.A[endpoint]) seen.push("A");
        else if (snapshot === snapshots.B[endpoint]) seen.push("B");
        else seen.push(`mixed (endpoint ${endpoint}): ${snapshot.slice(0, 200)}`);
      } while (writing);
    });
    await Promise.all([writer, ...readers]);

    expect(seen.length).toBeGreaterThanOrEqual(READERS);
    expect(seen.filter((label) => label !== "A" && label !== "B")).toEqual([]);
  });

  it("HTTP readers only ever see the old or the new registry", async () => {
    const snapshots = await expectedSnapshots();
    const paths = ["/entities/networks", "/entities/operators", "/entities/vaults", "/entities/curators"];
    let writing = true;
    const seen: string[] = [];

    const writer = (async () => {
      try {
        for (let round = 0; round < ROUNDS; round += 1)
          await replaceRegistry(database, registries[round % 2]!);
      } finally {
        writing = false;
      }
    })();
    const readers = paths.map(async (path, endpoint) => {
      do {
        // Moving the clock makes every request re-check the generation, so caches follow each import.
        clock.advance(1000);
        const response = await app.inject({ method: "GET", url: `/api/v1${path}` });
        expect(response.statusCode).toBe(200);
        if (response.body === snapshots.A[endpoint]) seen.push("A");
        else if (response.body === snapshots.B[endpoint]) seen.push("B");
        else seen.push(`mixed (${path}): ${response.body.slice(0, 200)}`);
      } while (writing);
    });
    await Promise.all([writer, ...readers]);

    expect(seen.length).toBeGreaterThanOrEqual(paths.length);
    expect(seen.filter((label) => label !== "A" && label !== "B")).toEqual([]);
  });

  it("concurrent imports queue instead of colliding, and one whole registry wins", async () => {
    await Promise.all([
      replaceRegistry(database, registries[0]),
      replaceRegistry(database, registries[1]),
      replaceRegistry(database, registries[0]),
      replaceRegistry(database, registries[1]),
    ]);
    const networks = await readNetworks(database);
    const vaults = await readApprovedVaults(database);
    expect(networks).toHaveLength(21);
    const renamed = networks.filter((n) => n.meta.name.endsWith(" (B)")).length;
    expect([0, 21]).toContain(renamed);
    const winner = renamed === 21 ? registries[1] : registries[0];
    expect(vaults.map((v) => v.address)).toEqual(
      winner.vaults
        .filter((v) => v.onChain?.approved)
        .map((v) => v.address)
        .sort(),
    );
  });
});

// The demo points dataset: generated once, deterministic, and enough for every points route to answer data.

import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { seedDemoPoints } from "../../src/demo/points.ts";
import type { App } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import {
  PointsByReceiverListSchema,
  PointsByReceiverTypeListSchema,
  PointsByVaultListSchema,
} from "../../src/points/schemas.ts";
import { address } from "../points/support.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";

const VAULTS: Address[] = Array.from({ length: 40 }, (_, i) => address("e", i + 1));

/** Per points type: snapshot count and the sum of snapshot totals. */
const fingerprint = (database: Database) =>
  database.query(
    `select points_type, count(*)::text as n, sum(total_points)::text as total
     from points_snapshots group by points_type order by points_type`,
  );
const fingerprints: unknown[] = [];

describe.each(databaseKinds)("demo points (%s)", (kind) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDemoPoints(database, { vaults: VAULTS, logger: silentLogger() });
    ({ app } = await createTestServer(database));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("generates the two partner points types, not the own one, and a couple of hundred snapshots", async () => {
    // The own type ("sluice") is the points engine's to compute, never generated.
    expect(await database.query("select name, decimals from points_types order by name")).toEqual([
      { name: "kalypso", decimals: 18 },
      { name: "primev", decimals: 18 },
    ]);
    const [{ snapshots }] = (await database.query<{ snapshots: string }>(
      "select count(*)::text as snapshots from points_snapshots",
    )) as [{ snapshots: string }];
    expect(Number(snapshots)).toBe(180);
  });

  it("is deterministic and loads only into an empty dataset", async () => {
    const before = await fingerprint(database);
    await seedDemoPoints(database, { vaults: VAULTS, logger: silentLogger() });
    expect(await fingerprint(database)).toEqual(before);

    // The same dataset whatever the order of the vaults given, and on every database kind.
    if (kind === "pglite") {
      const other = await createTestDatabase("pglite");
      try {
        await seedDemoPoints(other, { vaults: [...VAULTS].reverse(), logger: silentLogger() });
        expect(await fingerprint(other)).toEqual(before);
      } finally {
        await other.close();
      }
    }
    for (const earlier of fingerprints) expect(earlier).toEqual(before);
    fingerprints.push(before);
  });

  it("gives every points route data to answer", async () => {
    const totals = PointsByVaultListSchema.parse((await app.inject("/api/v1/points/total/current")).json());
    expect(totals.map((record) => record.points_type)).toEqual(["kalypso", "primev"]);
    const bigVault = totals[1]!.items.reduce((best, item) =>
      BigInt(item.points) > BigInt(best.points) ? item : best,
    );

    const receivers = PointsByReceiverListSchema.parse(
      (await app.inject(`/api/v1/points/vault/${bigVault.vault_address}/current`)).json(),
    );
    expect(receivers.length).toBeGreaterThan(0);
    const receiver = receivers[0]!.items[0]!.receiver_address;

    const byVault = PointsByVaultListSchema.parse(
      (await app.inject(`/api/v1/points/receiver/${receiver}/current`)).json(),
    );
    expect(byVault.length).toBeGreaterThan(0);

    const byType = PointsByReceiverTypeListSchema.parse(
      (await app.inject(`/api/v1/points/vault/${bigVault.vault_address}/21300000`)).json(),
    );
    expect(new Set(byType.flatMap((record) => record.items.map((item) => item.receiver_type)))).toEqual(
      new Set(["network", "operator", "staker"]),
    );
    // Different cadences: the same block resolves to a different snapshot block per type.
    const past = PointsByVaultListSchema.parse((await app.inject("/api/v1/points/total/21300000")).json());
    expect(new Set(past.map((record) => record.last_block)).size).toBe(2);
  });
});

// The snapshot writer: grouping, aggregates, immutability, type decimals, and all-or-nothing ingest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { readGeneration } from "../../src/db/generations.ts";
import {
  InvalidPointsRowError,
  ingestSnapshot,
  type PointsRow,
  PointsTypeError,
  SnapshotBatchWriter,
  SnapshotExistsError,
  type SnapshotSummary,
} from "../../src/points/writer.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { address, loadSnapshot, row } from "./support.ts";

const V1 = address("a", 1);
const V2 = address("a", 2);
const R1 = address("b", 1);
const R2 = address("b", 2);
const HUGE = 2n ** 200n + 12345n;

describe.each(databaseKinds)("snapshot writer (%s)", (kind) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await database?.close();
  });

  const count = async (table: string) =>
    Number((await database.query<{ n: string }>(`select count(*)::text as n from ${table}`))[0]!.n);

  it("sums repeated rows and precomputes per-vault and per-receiver-type totals exactly", async () => {
    const generation = await readGeneration(database, "points");
    const summary = await loadSnapshot(
      database,
      "sluice",
      1_000,
      [
        row(V1, R1, HUGE),
        row(V1, R1, HUGE), // the same position from a second network: added up
        row(V1, R2, 1n, "operator"),
        row(V2, R2, 7n),
      ],
      48,
    );
    expect(summary).toMatchObject({
      pointsType: "sluice",
      blockNumber: 1_000,
      decimals: 48,
      inputRows: 4,
      receiverRows: 3,
      vaults: 2,
      totalPoints: 2n * HUGE + 8n,
    });
    const id = summary.snapshotId;
    expect(
      await database.query(
        "select vault, receiver, receiver_type, points::text as points from points_balances where snapshot_id = $1 order by vault, receiver",
        [id],
      ),
    ).toEqual([
      { vault: V1, receiver: R1, receiver_type: "staker", points: (2n * HUGE).toString() },
      { vault: V1, receiver: R2, receiver_type: "operator", points: "1" },
      { vault: V2, receiver: R2, receiver_type: "staker", points: "7" },
    ]);
    expect(
      await database.query(
        "select vault, points::text as points from points_vault_totals where snapshot_id = $1 order by vault",
        [id],
      ),
    ).toEqual([
      { vault: V1, points: (2n * HUGE + 1n).toString() },
      { vault: V2, points: "7" },
    ]);
    expect(
      await database.query(
        "select vault, receiver_type, points::text as points from points_vault_type_totals where snapshot_id = $1 order by vault, receiver_type",
        [id],
      ),
    ).toEqual([
      { vault: V1, receiver_type: "operator", points: "1" },
      { vault: V1, receiver_type: "staker", points: (2n * HUGE).toString() },
      { vault: V2, receiver_type: "staker", points: "7" },
    ]);
    expect(await database.query("select address from points_vaults order by address")).toEqual([
      { address: V1 },
      { address: V2 },
    ]);
    expect(await readGeneration(database, "points")).toBe(generation + 1);
  });

  it("refuses a second snapshot of the same type and block: snapshots are immutable", async () => {
    await expect(loadSnapshot(database, "sluice", 1_000, [row(V1, R1, 1n)], 48)).rejects.toBeInstanceOf(
      SnapshotExistsError,
    );
  });

  it("needs decimals for a new type and refuses other decimals for an existing one", async () => {
    await expect(ingestSnapshot(database, { pointsType: "fresh", blockNumber: 1 }, [])).rejects.toThrow(
      PointsTypeError,
    );
    await expect(loadSnapshot(database, "sluice", 2_000, [], 18)).rejects.toThrow(/has 48 decimals, not 18/);
    // An existing type needs no decimals.
    const summary = await ingestSnapshot(database, { pointsType: "sluice", blockNumber: 2_000 }, [
      row(V1, R1, 3n),
    ]);
    expect(summary.decimals).toBe(48);
  });

  it("writes nothing when the row stream fails part-way, even after several batches", async () => {
    const before = await Promise.all(["points_snapshots", "points_balances", "points_types"].map(count));
    const generation = await readGeneration(database, "points");
    async function* failing(): AsyncGenerator<PointsRow> {
      for (let i = 1; i <= 25; i++) yield row(V1, address("c", i), BigInt(i));
      throw new Error("line 26: bad row");
    }
    await expect(
      ingestSnapshot(database, { pointsType: "brand-new", blockNumber: 5, decimals: 6 }, failing(), {
        batchSize: 10,
      }),
    ).rejects.toThrow("line 26: bad row");
    await expect(
      ingestSnapshot(database, { pointsType: "brand-new", blockNumber: 5, decimals: 6 }, [
        row(V1, R1, 1n),
        { ...row(V1, R1, 1n), receiver: R2.toUpperCase() as PointsRow["receiver"] },
      ]),
    ).rejects.toBeInstanceOf(InvalidPointsRowError);
    expect(await Promise.all(["points_snapshots", "points_balances", "points_types"].map(count))).toEqual(
      before,
    );
    expect(await readGeneration(database, "points")).toBe(generation);
  });

  it("refuses amounts outside uint256 and blank receiver types", async () => {
    for (const bad of [
      row(V1, R1, -1n),
      row(V1, R1, 2n ** 256n),
      row(V1, R1, 1n, " "),
      row(V1, R1, 1n, ""),
    ]) {
      await expect(loadSnapshot(database, "sluice", 3_000, [bad], 48)).rejects.toBeInstanceOf(
        InvalidPointsRowError,
      );
    }
  });

  it("stores a batch of snapshots exactly as it stores the same snapshots one by one", async () => {
    const snapshots = [
      { blockNumber: 10, rows: [row(V1, R1, 5n), row(V1, R1, 6n), row(V2, R2, 1n, "operator")] },
      { blockNumber: 20, rows: [] },
      { blockNumber: 30, rows: [row(V2, R1, HUGE), row(V2, R2, 2n)] },
    ];
    const single: SnapshotSummary[] = [];
    for (const snapshot of snapshots)
      single.push(await loadSnapshot(database, "one-by-one", snapshot.blockNumber, snapshot.rows, 6));
    const generation = await readGeneration(database, "points");
    const batched = await database.db.transaction(async (tx) => {
      const writer = await SnapshotBatchWriter.open(tx, {
        pointsType: "batched",
        decimals: 6,
        blockNumbers: snapshots.map((snapshot) => snapshot.blockNumber),
      });
      await writer.append(
        snapshots.flatMap((snapshot) =>
          snapshot.rows.map((r) => ({ ...r, blockNumber: snapshot.blockNumber })),
        ),
      );
      return writer.finish();
    });
    expect(await readGeneration(database, "points")).toBe(generation + 1);
    const comparable = (summary: SnapshotSummary) => ({ ...summary, snapshotId: 0, pointsType: "" });
    expect(batched.map(comparable)).toEqual(single.map(comparable));
    const stored = async (summaries: SnapshotSummary[]) => {
      const ids = summaries.map((summary) => summary.snapshotId);
      const rank = `array_position($1::int[], snapshot_id)`;
      return Promise.all([
        database.query(
          `select ${rank} as n, vault, receiver, receiver_type, points::text as points from points_balances
           where snapshot_id = any($1::int[]) order by 1, 2, 3, 4`,
          [ids],
        ),
        database.query(
          `select ${rank} as n, vault, receiver_type, points::text as points from points_vault_type_totals
           where snapshot_id = any($1::int[]) order by 1, 2, 3`,
          [ids],
        ),
        database.query(
          `select ${rank} as n, vault, points::text as points from points_vault_totals
           where snapshot_id = any($1::int[]) order by 1, 2`,
          [ids],
        ),
        database.query(
          `select array_position($1::int[], id) as n, block_number::text as block, total_points::text as total,
             receiver_rows from points_snapshots where id = any($1::int[]) order by 1`,
          [ids],
        ),
      ]);
    };
    expect(await stored(batched)).toEqual(await stored(single));
  });

  it("refuses a batch that repeats a block, names an existing snapshot or gets a row of another block", async () => {
    const open = (blockNumbers: number[]) =>
      database.db.transaction(async (tx) => {
        const writer = await SnapshotBatchWriter.open(tx, { pointsType: "sluice", blockNumbers });
        await writer.append([{ ...row(V1, R1, 1n), blockNumber: 999_999 }]);
      });
    await expect(open([50_000, 50_000])).rejects.toBeInstanceOf(InvalidPointsRowError);
    await expect(open([50_000, 1_000])).rejects.toThrow(SnapshotExistsError);
    await expect(open([50_000])).rejects.toThrow(/block 999999 is not a snapshot of this batch/);
    expect(await count("points_snapshots where block_number = 50000")).toBe(0);
  });
});

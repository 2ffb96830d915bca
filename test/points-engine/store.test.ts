// The engine's storage on both databases: a step's records, journal, blocks, position, snapshot and current
// aggregates land together; a rewind restores exactly the records after the fork point and forgets what came after;
// the lease fences a process that lost it; a reset forgets everything; the records table leaves room on its pages
// for updates.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { PointsEngineLeaseLostError } from "../../src/points-engine/errors.ts";
import { PointsEngineLease } from "../../src/points-engine/lease.ts";
import { steppedBlocksNewestFirst } from "../../src/points-engine/store/blocks.ts";
import { readPosition } from "../../src/points-engine/store/position.ts";
import {
  readReceiverRecords,
  readSharedRecords,
  readVaultReceiverRecords,
  type StoredRecord,
} from "../../src/points-engine/store/records.ts";
import { CURRENT, listSnapshots, readAmounts } from "../../src/points-engine/store/snapshots.ts";
import { EngineStore, type StepBatch } from "../../src/points-engine/store/store.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const VAULT = "0x00000000000000000000000000000000000000aa";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b0";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const block = (n: number) => ({ number: BigInt(n), hash: hash(n), timestamp: BigInt(1000 + 12 * n) });
const vaultRecord = (index: string): StoredRecord => ({
  kind: "vault",
  key: VAULT,
  vault: VAULT,
  value: { index },
});
const stakerRecord = (who: string, shares: string): StoredRecord => ({
  kind: "staker",
  key: `${VAULT}:${who}`,
  vault: VAULT,
  receiver: who,
  value: { shares, settled: "0" },
});

function batch(
  blocks: Array<[number, StoredRecord[]]>,
  finalBlock: number | undefined,
  extra: Partial<StepBatch> = {},
): StepBatch {
  return {
    blocks: blocks.map(([n, changes]) => ({ block: block(n), changes })),
    emitted: BigInt(blocks.at(-1)![0]) * 10n,
    blocksPerSecond: 1,
    snapshots: [],
    current: [{ vault: VAULT, receiverType: "staker", points: BigInt(blocks.at(-1)![0]) }],
    finalBlock: finalBlock === undefined ? undefined : BigInt(finalBlock),
    ...extra,
  };
}

describe.each(databaseKinds)("points engine store (%s)", (kind) => {
  let database: Database;
  let store: EngineStore;
  let lease: PointsEngineLease;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    store = new EngineStore(database, new ManualClock());
    lease = (await PointsEngineLease.acquire(database))!;
  });
  afterEach(async () => {
    await lease.release();
    await database.close();
  });

  const records = async () =>
    (await store.readRecords()).map(
      (record) => `${record.kind}/${record.key}=${JSON.stringify(record.value)}`,
    );

  it("leaves room on the records' pages, so a step's updates stay on their pages (fillfactor)", async () => {
    const [row] = await database.query<{ options: string[] | null }>(
      "select reloptions as options from pg_class where relname = 'points_engine_records'",
    );
    expect(row?.options).toEqual(["fillfactor=70"]);
  });

  it("writes a step's records, position, snapshot and current aggregates together", async () => {
    await store.commitStep(
      lease,
      batch([[10, [vaultRecord("1"), stakerRecord(ALICE, "5")]]], undefined, {
        snapshots: [
          {
            blockNumber: 10n,
            blockTimestamp: 1120n,
            total: 7n,
            emitted: 100n,
            vaults: [
              { vault: VAULT, receiverType: "operator", points: 2n },
              { vault: VAULT, receiverType: "staker", points: 5n },
            ],
          },
        ],
      }),
    );
    expect(await readPosition(database)).toMatchObject({
      blockNumber: 10n,
      blockHash: hash(10),
      emitted: 100n,
      leaseEpoch: lease.epoch,
    });
    expect((await listSnapshots(database)).map((s) => [s.blockNumber, s.total, s.emitted])).toEqual([
      [10n, 7n, 100n],
    ]);
    expect(await readAmounts(database, 10n, VAULT)).toEqual([
      { vault: VAULT, receiverType: "operator", points: 2n },
      { vault: VAULT, receiverType: "staker", points: 5n },
    ]);
    expect(await readAmounts(database, CURRENT)).toEqual([
      { vault: VAULT, receiverType: "staker", points: 10n },
    ]);
    expect(await readReceiverRecords(database, ALICE)).toEqual([stakerRecord(ALICE, "5")]);
    expect(await readSharedRecords(database)).toEqual([vaultRecord("1")]);
  });

  it("rewinds to a fork point: the records after it, its position, no later blocks or snapshots", async () => {
    await store.commitStep(lease, batch([[10, [vaultRecord("1"), stakerRecord(ALICE, "5")]]], 5));
    const afterTen = await records();
    await store.commitStep(
      lease,
      batch(
        [
          [11, [vaultRecord("2"), stakerRecord(BOB, "3")]],
          [12, [vaultRecord("3"), stakerRecord(ALICE, "9"), stakerRecord(ALICE, "8")]],
        ],
        5,
        {
          snapshots: [
            {
              blockNumber: 12n,
              blockTimestamp: 1144n,
              total: 1n,
              emitted: 1n,
              vaults: [{ vault: VAULT, receiverType: "staker", points: 1n }],
            },
          ],
        },
      ),
    );
    expect(await readReceiverRecords(database, ALICE)).toEqual([stakerRecord(ALICE, "8")]);
    expect((await steppedBlocksNewestFirst(database.db)).map((b) => b.number)).toEqual([12n, 11n, 10n]);

    await store.rewind(lease, block(10), (restored) => {
      expect(restored.map((r) => `${r.kind}/${r.key}=${JSON.stringify(r.value)}`)).toEqual(afterTen);
      return { emitted: 42n, current: [{ vault: VAULT, receiverType: "staker", points: 4n }] };
    });
    expect(await records()).toEqual(afterTen);
    expect(await readPosition(database)).toMatchObject({
      blockNumber: 10n,
      blockHash: hash(10),
      emitted: 42n,
    });
    expect(await listSnapshots(database)).toEqual([]);
    expect(await readAmounts(database, 12n)).toEqual([]);
    expect(await readAmounts(database, CURRENT)).toEqual([
      { vault: VAULT, receiverType: "staker", points: 4n },
    ]);
    expect((await steppedBlocksNewestFirst(database.db)).map((b) => b.number)).toEqual([10n]);
  });

  it("journals nothing at or below finality and prunes what became final", async () => {
    // A backfill's batch: every block final, written merged.
    await store.commitStep(
      lease,
      batch(
        [
          [3, [vaultRecord("1")]],
          [4, [vaultRecord("2"), stakerRecord(ALICE, "1")]],
        ],
        100,
      ),
    );
    expect(await records()).toEqual([
      `staker/${VAULT}:${ALICE}={"shares":"1","settled":"0"}`,
      `vault/${VAULT}={"index":"2"}`,
    ]);
    const journal = () =>
      database.query<{ n: string }>("select count(*)::text as n from points_engine_journal");
    expect(await journal()).toEqual([{ n: "0" }]);
    await store.commitStep(
      lease,
      batch(
        [
          [101, [vaultRecord("3")]],
          [102, [vaultRecord("4")]],
        ],
        100,
      ),
    );
    expect(await journal()).toEqual([{ n: "2" }]);
    await store.commitStep(lease, batch([[103, [vaultRecord("5")]]], 102));
    expect(await journal()).toEqual([{ n: "1" }]);
    // The newest final block stays as the deepest fork point.
    expect((await steppedBlocksNewestFirst(database.db)).map((b) => b.number)).toEqual([103n, 102n]);
  });

  it("pages a vault's receivers' records in receiver order", async () => {
    await store.commitStep(
      lease,
      batch([[10, [vaultRecord("1"), stakerRecord(BOB, "2"), stakerRecord(ALICE, "1")]]], undefined),
    );
    const first = await readVaultReceiverRecords(database, VAULT, null, 1);
    expect(first).toEqual({ records: [stakerRecord(ALICE, "1")], lastReceiver: ALICE, receivers: 1 });
    const second = await readVaultReceiverRecords(database, VAULT, ALICE, 1);
    expect(second.records).toEqual([stakerRecord(BOB, "2")]);
    expect((await readVaultReceiverRecords(database, VAULT, BOB, 1)).receivers).toBe(0);
  });

  it("refuses the writes of a lease a newer one replaced, and resets to nothing", async () => {
    await store.commitStep(lease, batch([[10, [vaultRecord("1")]]], undefined));
    await lease.release();
    const newer = (await PointsEngineLease.acquire(database))!;
    await expect(
      store.commitStep(lease, batch([[11, [vaultRecord("2")]]], undefined)),
    ).rejects.toBeInstanceOf(PointsEngineLeaseLostError);
    expect(await records()).toEqual([`vault/${VAULT}={"index":"1"}`]);
    await store.reset(newer);
    expect(await records()).toEqual([]);
    expect(await readPosition(database)).toBeUndefined();
    lease = newer;
  });
});

// What a points engine has published, read from its database, for comparing two runs: records, position, snapshots
// and the aggregates at the position (not the journal or kept blocks, which depend on the path taken).
import type { Database } from "../../src/db/client.ts";
import { silentLogger } from "../../src/logger.ts";
import { PointsFollower, type PointsFollowerOptions } from "../../src/points-engine/follower.ts";
import { PointsEngineLease } from "../../src/points-engine/lease.ts";
import { readPosition } from "../../src/points-engine/store/position.ts";
import { readAllRecords } from "../../src/points-engine/store/records.ts";
import { CURRENT, listSnapshots, readAmounts } from "../../src/points-engine/store/snapshots.ts";
import { ManualClock } from "../support/clock.ts";
import { type ScriptedPointsChain, scopedLedgers } from "../support/points-chain.ts";

export async function publishedState(database: Database) {
  const position = await readPosition(database);
  const snapshots = await listSnapshots(database);
  return {
    position: position && {
      block: position.blockNumber,
      hash: position.blockHash,
      timestamp: position.blockTimestamp,
      emitted: position.emitted,
    },
    records: (await readAllRecords(database.db)).map((r) => `${r.kind} ${r.key} ${JSON.stringify(r.value)}`),
    snapshots: await Promise.all(
      snapshots.map(async (s) => ({
        block: s.blockNumber,
        total: s.total,
        emitted: s.emitted,
        amounts: await readAmounts(database, s.blockNumber),
      })),
    ),
    current: await readAmounts(database, CURRENT),
  };
}

export function followerOn(
  database: Database,
  chain: ScriptedPointsChain,
  options: Partial<PointsFollowerOptions> = {},
): PointsFollower {
  return new PointsFollower({
    database,
    clock: new ManualClock(),
    logger: silentLogger(),
    chain,
    ledgers: async () => scopedLedgers,
    startBlock: 2n,
    historyFromBlock: 1n,
    confirmations: 0,
    finalityDepth: 64,
    snapshotEveryBlocks: 10,
    ...options,
  });
}

/** Steps `follower` under a lease of its own until it is at the chain's head less its confirmations. */
export async function followToHead(database: Database, follower: PointsFollower): Promise<void> {
  const lease = await PointsEngineLease.acquire(database);
  if (!lease) throw new Error("lease held elsewhere");
  try {
    for (let i = 0; i < 10_000; i++) {
      const step = await follower.step(lease);
      if (step.rewoundTo === undefined && step.blocks === 0) return;
    }
    throw new Error("did not catch up");
  } finally {
    await lease.release();
  }
}

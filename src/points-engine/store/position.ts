// Where the engine is (points_engine_position, one row): the block its records are at, with that block's hash and
// timestamp, the lease epoch that wrote it, Σ emitted, and its recent speed. Written in every step's transaction, which
// also notifies POINTS_ENGINE_POSITION_CHANNEL: the serving replicas re-read it then (position-watch.ts).
import { sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Database } from "../../db/client.ts";
import type { SqlSession } from "../../shared/sql-session.ts";

export interface EnginePosition {
  blockNumber: bigint;
  blockHash: Hex;
  blockTimestamp: bigint;
  leaseEpoch: bigint;
  emitted: bigint;
  blocksPerSecond: number;
  updatedAt: Date;
}

/** Notified (on commit) by every transaction that writes or clears the position. */
export const POINTS_ENGINE_POSITION_CHANNEL = "points_engine_position";

export async function readPosition(database: Database): Promise<EnginePosition | undefined> {
  const [row] = await database.query<{
    block_number: string;
    block_hash: string;
    block_timestamp: string;
    lease_epoch: string;
    emitted: string;
    blocks_per_second: number;
    updated_at: Date | string;
  }>(
    `select block_number::text as block_number, block_hash, block_timestamp::text as block_timestamp,
            lease_epoch::text as lease_epoch, emitted::text as emitted, blocks_per_second, updated_at
       from points_engine_position where id = 1`,
    [],
    { name: "points_engine_position" },
  );
  if (!row) return undefined;
  return {
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash as Hex,
    blockTimestamp: BigInt(row.block_timestamp),
    leaseEpoch: BigInt(row.lease_epoch),
    emitted: BigInt(row.emitted),
    blocksPerSecond: Number(row.blocks_per_second),
    updatedAt: new Date(row.updated_at),
  };
}

export async function writePosition(
  tx: SqlSession,
  position: Omit<EnginePosition, "updatedAt">,
  now: Date,
): Promise<void> {
  // One statement: the row and its notification (delivered when the transaction commits).
  await tx.execute(sql`
    with written as (
      insert into points_engine_position
        (id, block_number, block_hash, block_timestamp, lease_epoch, emitted, blocks_per_second, updated_at)
      values (1, ${position.blockNumber.toString()}::bigint, ${position.blockHash},
              ${position.blockTimestamp.toString()}::bigint, ${position.leaseEpoch.toString()}::bigint,
              ${position.emitted.toString()}::numeric, ${position.blocksPerSecond}, ${now.toISOString()}::timestamptz)
      on conflict (id) do update set
        block_number = excluded.block_number, block_hash = excluded.block_hash,
        block_timestamp = excluded.block_timestamp, lease_epoch = excluded.lease_epoch, emitted = excluded.emitted,
        blocks_per_second = excluded.blocks_per_second, updated_at = excluded.updated_at
      returning 1
    )
    select pg_notify(${POINTS_ENGINE_POSITION_CHANNEL}, '') from written`);
}

export async function clearPosition(tx: SqlSession): Promise<void> {
  await tx.execute(sql`delete from points_engine_position`);
  await notifyPosition(tx);
}

async function notifyPosition(tx: SqlSession): Promise<void> {
  await tx.execute(sql`select pg_notify(${POINTS_ENGINE_POSITION_CHANNEL}, '')`);
}

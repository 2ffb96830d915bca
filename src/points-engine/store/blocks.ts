// The blocks the engine stepped to that a reorg can still remove (points_engine_blocks): by their hashes the engine
// notices a reorg and finds the fork point, the newest of them still on the chain. The newest final one is kept as
// the floor a rewind can reach.
import { sql } from "drizzle-orm";
import type { Hex } from "viem";
import { type SqlSession, selectRows } from "../../shared/sql-session.ts";

export interface SteppedBlock {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

export async function recordBlock(tx: SqlSession, block: SteppedBlock): Promise<void> {
  await tx.execute(sql`
    insert into points_engine_blocks (number, hash, timestamp)
    values (${block.number.toString()}::bigint, ${block.hash}, ${block.timestamp.toString()}::bigint)
    on conflict (number) do update set hash = excluded.hash, timestamp = excluded.timestamp`);
}

/** The stored blocks, newest first. */
export async function steppedBlocksNewestFirst(session: SqlSession): Promise<SteppedBlock[]> {
  const rows = await selectRows<{ number: string; hash: string; timestamp: string }>(
    session,
    sql`select number::text as number, hash, timestamp::text as timestamp from points_engine_blocks order by number desc`,
  );
  return rows.map((row) => ({
    number: BigInt(row.number),
    hash: row.hash as Hex,
    timestamp: BigInt(row.timestamp),
  }));
}

export async function forgetBlocksAbove(tx: SqlSession, forkPoint: bigint): Promise<void> {
  await tx.execute(sql`delete from points_engine_blocks where number > ${forkPoint.toString()}::bigint`);
}

/** Keeps the newest block at or below `finalBlock` (the deepest fork point left) and everything above it. */
export async function pruneBlocks(tx: SqlSession, finalBlock: bigint): Promise<void> {
  await tx.execute(sql`
    delete from points_engine_blocks
     where number < (select max(number) from points_engine_blocks where number <= ${finalBlock.toString()}::bigint)`);
}

export async function clearBlocks(tx: SqlSession): Promise<void> {
  await tx.execute(sql`delete from points_engine_blocks`);
}

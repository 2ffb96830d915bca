// Where the points engine is, as any replica can tell (its stored position) against where it could be (the head this
// replica's block tracker last received, less the engine's confirmations): its readiness check and lag gauges read it
// (src/readiness/followers.ts), and so does `sluice points engine status`.
import type { BlockHead } from "../chain/blocks.ts";
import type { Database } from "../db/client.ts";
import type { FollowerPosition } from "../readiness/followers.ts";

/** The block the engine's records are at, on whichever process computes; null before its first step. */
export async function enginePosition(database: Database): Promise<bigint | null> {
  const [row] = await database.query<{ block_number: string }>(
    "select block_number::text as block_number from points_engine_position where id = 1",
    [],
    { name: "sluice_points_engine_position" },
  );
  return row ? BigInt(row.block_number) : null;
}

export interface EngineProgressOptions {
  database: Database;
  head: { readonly current: BlockHead | undefined; fetch(): Promise<BlockHead> };
  confirmations: number;
  startBlock: bigint;
}

export async function readEngineProgress(options: EngineProgressOptions): Promise<FollowerPosition> {
  const [position, head] = await Promise.all([
    enginePosition(options.database),
    options.head.current ?? options.head.fetch(),
  ]);
  const target = head.number - BigInt(options.confirmations);
  const done = position ?? options.startBlock - 1n;
  return { position, target, lagBlocks: target > done ? target - done : 0n };
}

// Where the Reactor indexer is, as any replica can tell (the block it last stored, in the database) against where it
// could be (the head this replica's block tracker last received, less the confirmation depth): the readiness check
// and the lag gauges read it (src/readiness/followers.ts).
import type { BlockHead } from "../chain/blocks.ts";
import type { Database } from "../db/client.ts";

/** The newest block the indexer has stored, on whichever replica indexes; null before the first. */
export async function indexedPosition(database: Database): Promise<bigint | null> {
  const [row] = await database.query<{ number: string | null }>(
    "select max(number)::text as number from indexed_blocks",
    [],
    { name: "sluice_indexed_position" },
  );
  return row?.number ? BigInt(row.number) : null;
}

export interface IndexerProgressOptions {
  database: Database;
  /** The head as last received; asked for only when none is known yet (a stalled RPC fails the chain's check). */
  head: { readonly current: BlockHead | undefined; fetch(): Promise<BlockHead> };
  confirmationDepth: number;
  startBlock: bigint;
}

export async function readIndexerProgress(options: IndexerProgressOptions) {
  const [position, head] = await Promise.all([
    indexedPosition(options.database),
    options.head.current ?? options.head.fetch(),
  ]);
  const target = head.number - BigInt(options.confirmationDepth);
  const done = position ?? options.startBlock - 1n;
  return { position, target, lagBlocks: target > done ? target - done : 0n };
}

// What the engine reads from the chain: the head, a block's header, and the stake events of a range of blocks. An
// interface so the engine runs the same on a node (rpcChainSource) and on a scripted chain in tests.
import { BlockNotFoundError } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import type { BlockEvents, Hex, StakeEvent } from "./model.ts";

export interface BlockHeader {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

export interface PointsChainSource {
  /** The chain's head block number now. */
  headNumber(): Promise<bigint>;
  /** Block `number`'s header; undefined when the chain does not reach it (any more). */
  header(number: bigint): Promise<BlockHeader | undefined>;
  /**
   * The stake events of blocks `from`..`to` (inclusive): only blocks that have some, ascending, each in log order.
   * Read only for final blocks: a node behind `to` may answer a range without the blocks it lacks.
   */
  events(from: bigint, to: bigint): Promise<BlockEvents[]>;
  /** The stake events of the block with this header, in log order, read by its hash; throws if the chain lacks it. */
  blockEvents(header: BlockHeader): Promise<StakeEvent[]>;
}

/**
 * The chain source of a node: headers by `eth_getBlockByNumber`, events by the given readers (eth_getLogs by range
 * and by block hash).
 */
export function rpcChainSource(
  client: ChainPublicClient,
  readEvents: (from: bigint, to: bigint) => Promise<BlockEvents[]>,
  readBlockEvents: (header: BlockHeader) => Promise<StakeEvent[]>,
): PointsChainSource {
  return {
    headNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    async header(number) {
      try {
        const block = await client.getBlock({ blockNumber: number });
        return { number: block.number, hash: block.hash, timestamp: block.timestamp };
      } catch (error) {
        if (error instanceof BlockNotFoundError) return undefined;
        throw error;
      }
    },
    events: readEvents,
    blockEvents: readBlockEvents,
  };
}

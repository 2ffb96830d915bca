// The chain's readiness check: the RPC has given a head recently (the block tracker's poll, or asked now), and, on a
// real network, that head's block is not old (a node stuck behind the chain answers, but with an old head).
import type { BlockHead } from "../chain/blocks.ts";
import type { Clock } from "../clock.ts";
import type { ReadinessCheck } from "./checks.ts";

export interface HeadSource {
  readonly current: BlockHead | undefined;
  /** ms since the epoch when `current` was received. */
  readonly receivedAt: number;
  fetch(): Promise<BlockHead>;
}

export interface ChainHeadCheckOptions {
  /** A head received longer ago than this is asked for again. */
  maxHeadAgeMs: number;
  /** The head's block may be at most this old; 0 does not check. */
  maxBlockAgeSeconds: number;
  clock: Clock;
}

export function chainHeadCheck(source: HeadSource, options: ChainHeadCheckOptions): ReadinessCheck {
  return {
    name: "chain-head",
    async run() {
      const cached = source.current;
      const fresh = cached && Date.now() - source.receivedAt <= options.maxHeadAgeMs;
      const head = fresh ? cached : await source.fetch();
      const blockAgeSeconds = Math.max(
        0,
        Math.round(options.clock.now().getTime() / 1000 - Number(head.timestamp)),
      );
      const details = {
        block: head.number.toString(),
        blockAgeSeconds,
        receivedMsAgo: Date.now() - source.receivedAt,
      };
      if (options.maxBlockAgeSeconds > 0 && blockAgeSeconds > options.maxBlockAgeSeconds)
        return {
          ok: false,
          message: `the RPC's head, block ${head.number}, is ${blockAgeSeconds} s old (at most ${options.maxBlockAgeSeconds})`,
          details,
        };
      return { ok: true, message: `block ${head.number}`, details };
    },
  };
}

// The reconciler's judgement of one open order at one indexed block (DESIGN.md §7), as a pure function: what the
// block's events and chain reads say about the order, never anything at `latest`.
import type { FundingState } from "./funding-reader.ts";

export const INSUFFICIENT_FUNDS_BLOCKS = 3;

export type Verdict =
  | { kind: "expired"; reason: string }
  | { kind: "error"; reason: string }
  | { kind: "underfunded"; streak: number; becomesInsufficient: boolean; reason: string }
  | { kind: "funded" };

export interface OpenOrderView {
  deadline: bigint;
  amountIn: bigint;
  /** Consecutive earlier indexed blocks the order was underfunded at (0 if none, or if the run was broken). */
  previousStreak: number;
}

export function judgeOpenOrder(order: OpenOrderView, funding: FundingState, blockTimestamp: bigint): Verdict {
  if (order.deadline < blockTimestamp) {
    return { kind: "expired", reason: `deadline ${order.deadline} passed at block time ${blockTimestamp}` };
  }
  // The block's Fill and InvalidateNonce events were applied first: a nonce used now was used by something else.
  if (funding.nonceUsed)
    return { kind: "error", reason: "nonce consumed on-chain without a Fill of this order" };
  const short = funding.balance < order.amountIn || funding.allowance < order.amountIn;
  if (!short) return { kind: "funded" };
  const streak = order.previousStreak + 1;
  const what =
    funding.balance < order.amountIn ? `balance ${funding.balance}` : `allowance ${funding.allowance}`;
  return {
    kind: "underfunded",
    streak,
    becomesInsufficient: streak >= INSUFFICIENT_FUNDS_BLOCKS,
    reason: `${what} below amountIn ${order.amountIn} at ${streak} consecutive blocks`,
  };
}

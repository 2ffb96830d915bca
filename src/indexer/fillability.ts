// Whether an open order, funded at the end of a block, was fillable throughout that block as far as its swapper
// decides, as a pure function of the block-end reads (funding-reader.ts) and the block's traces (swapper-activity.ts).
// A fill lands at some point inside a block; the bounds below hold at every point of it:
//   balance:   at any point, the end balance less what came in later ≥ end balance − all inflows of the block;
//   allowance: without an Approval in the block it only falls (the Reactor spends it), so the end value bounds it;
//              with one, it is at least the lowest of (the previous block's value, every value set) less everything
//              that left the swapper in the block (the Reactor's spending is among it);
//   signature: an account without code and without an EIP-7702 authorization in the block answers with ECDSA, which
//              cannot change; one with code answers however its code decides, so nothing outside can vouch for it;
//   outputs:   the output token accepts a transfer to every recipient (probed at the block's end: what a token
//              refuses is its issuer's state, never the swapper's).
// A reason here excuses the order's expiry (the solver is not blamed); the order's status is not changed by it.
import type { FundingState } from "./funding-reader.ts";
import { activityKey, type SwapperActivity } from "./swapper-activity.ts";

export interface FillabilityView {
  swapper: string;
  tokenIn: string;
  amountIn: bigint;
}

/** Why the order may not have been fillable at some point of the block, or null when it was throughout. */
export function unfillableInBlock(
  order: FillabilityView,
  funding: FundingState,
  activity: SwapperActivity,
): string | null {
  const swapper = order.swapper.toLowerCase();
  const key = activityKey(order.tokenIn, swapper);
  if (activity.withCode.has(swapper))
    return "the swapper has code: a contract decides on its signature at every call";
  if (activity.authorized.has(swapper))
    return "the swapper signed an EIP-7702 authorization in the block: its signature may have been a contract's";
  if (funding.refusedRecipient) return `the output token refuses recipient ${funding.refusedRecipient}`;
  const inflows = activity.inflows.get(key) ?? 0n;
  if (funding.balance - inflows < order.amountIn)
    return `balance may have been below amountIn inside the block (${funding.balance} at its end, ${inflows} received in it)`;
  const lowestApproval = activity.lowestApproval.get(key);
  if (lowestApproval !== undefined) {
    const before = activity.allowanceBefore.get(key) ?? 0n;
    const outflows = activity.outflows.get(key) ?? 0n;
    const lowest = before < lowestApproval ? before : lowestApproval;
    if (lowest - outflows < order.amountIn)
      return `allowance may have been below amountIn inside the block (set as low as ${lowestApproval})`;
  }
  return null;
}

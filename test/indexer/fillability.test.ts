// The reconciler's judgement of whether an order funded at a block's end was fillable at every point inside the block
// (src/indexer/fillability.ts): the bounds hold where a swapper could have dipped below amountIn, and only there.
import { describe, expect, it } from "vitest";
import { unfillableInBlock } from "../../src/indexer/fillability.ts";
import type { FundingState } from "../../src/indexer/funding-reader.ts";
import { activityKey, noActivity, type SwapperActivity } from "../../src/indexer/swapper-activity.ts";

const SWAPPER = "0x00000000000000000000000000000000000000AA";
const TOKEN = "0x00000000000000000000000000000000000000bb";
const KEY = activityKey(TOKEN, SWAPPER);
const order = { swapper: SWAPPER, tokenIn: TOKEN, amountIn: 100n };
const funded: FundingState = { balance: 150n, allowance: 1000n, nonceUsed: false, refusedRecipient: null };
const activity = (change: (activity: SwapperActivity) => void) => {
  const value = noActivity();
  change(value);
  return value;
};

describe("fillable throughout a block", () => {
  it("a quiet block: funded at its end is funded throughout", () => {
    expect(unfillableInBlock(order, funded, noActivity())).toBeNull();
  });

  it("balance: the end less what came in must still cover amountIn", () => {
    expect(
      unfillableInBlock(
        order,
        funded,
        activity((a) => a.inflows.set(KEY, 50n)),
      ),
    ).toBeNull();
    expect(
      unfillableInBlock(
        order,
        funded,
        activity((a) => a.inflows.set(KEY, 51n)),
      ),
    ).toMatch(/^balance may/);
    // Outflows alone lower the end balance, which the block's end already judged.
    expect(
      unfillableInBlock(
        order,
        funded,
        activity((a) => a.outflows.set(KEY, 10_000n)),
      ),
    ).toBeNull();
  });

  it("allowance: an Approval in the block is bounded by the previous block's value and every value set", () => {
    // Re-approving a covering amount over a covering allowance is no excuse.
    const reapproved = activity((a) => {
      a.lowestApproval.set(KEY, 500n);
      a.allowanceBefore.set(KEY, 1000n);
    });
    expect(unfillableInBlock(order, funded, reapproved)).toBeNull();
    // Set to zero and back: not fillable at some point.
    const toggled = activity((a) => {
      a.lowestApproval.set(KEY, 0n);
      a.allowanceBefore.set(KEY, 1000n);
    });
    expect(unfillableInBlock(order, funded, toggled)).toMatch(/^allowance may/);
    // Approved in the block from nothing: before the Approval, nothing covered the fill.
    const fromNothing = activity((a) => {
      a.lowestApproval.set(KEY, 1000n);
      a.allowanceBefore.set(KEY, 0n);
    });
    expect(unfillableInBlock(order, funded, fromNothing)).toMatch(/^allowance may/);
    // What left the swapper in the block (the Reactor's spending among it) is taken off the bound.
    const spent = activity((a) => {
      a.lowestApproval.set(KEY, 150n);
      a.allowanceBefore.set(KEY, 1000n);
      a.outflows.set(KEY, 60n);
    });
    expect(unfillableInBlock(order, funded, spent)).toMatch(/^allowance may/);
  });

  it("signature and outputs: code, an EIP-7702 authorization, a refused recipient", () => {
    const swapper = SWAPPER.toLowerCase();
    expect(
      unfillableInBlock(
        order,
        funded,
        activity((a) => a.withCode.add(swapper)),
      ),
    ).toMatch(/has code/);
    expect(
      unfillableInBlock(
        order,
        funded,
        activity((a) => a.authorized.add(swapper)),
      ),
    ).toMatch(/EIP-7702/);
    expect(
      unfillableInBlock(
        order,
        { ...funded, refusedRecipient: "0x0000000000000000000000000000000000000000" },
        noActivity(),
      ),
    ).toMatch(/refuses recipient/);
  });
});

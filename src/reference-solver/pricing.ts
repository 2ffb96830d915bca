// The reference solver's pricing, as pure functions over bigints (DESIGN.md §3 rate math, §4 reference solver):
// which legs it trusts, how it spreads an exact input over them, and what it quotes. The same allocation plans a
// fill, so what the solver quotes is what its fill asks the adapters for.
//
// A leg is direct (the solver's Executor swaps at `getMaxRate`) or a discount leg (a published discount, swapped
// through the adapter's discount swap at the oracle output less the discount). Both kinds on one adapter are
// alternatives over the same capacity: the allocation takes the better one and never counts the capacity twice.
import type { Address, Hex } from "viem";

export const RATE_SCALE = 10n ** 18n;
export const BPS = 10_000n;
export const PPM = 1_000_000n;

export interface TokenDecimals {
  tokenIn: number;
  tokenOut: number;
}

/** The discount a discount leg swaps with. */
export interface LegDiscount {
  discountId: Hex;
  /** Of the gross oracle output. */
  ppm: bigint;
}

/** One adapter as the solver prices it: a 1e18-scaled rate and a capacity in tokenOut base units. */
export interface PricedLeg {
  adapter: Address;
  rate: bigint;
  capacity: bigint;
  /** Present on a discount leg. */
  discount?: LegDiscount;
}

/** `amountIn × rate × 10^outDec / (1e18 × 10^inDec)`, rounded down: what an adapter releases at `rate`. */
export function amountOutAt(amountIn: bigint, rate: bigint, decimals: TokenDecimals): bigint {
  return (
    (amountIn * rate * 10n ** BigInt(decimals.tokenOut)) / (RATE_SCALE * 10n ** BigInt(decimals.tokenIn))
  );
}

/**
 * The most input whose rounded-down output at `rate` is at most `capacity`. With k = rate × 10^outDec and
 * D = 1e18 × 10^inDec: floor(x·k / D) ≤ C ⇔ x·k < (C + 1)·D ⇔ x ≤ ((C + 1)·D − 1) / k.
 */
export function maxInputWithin(capacity: bigint, rate: bigint, decimals: TokenDecimals): bigint {
  const k = rate * 10n ** BigInt(decimals.tokenOut);
  if (k === 0n) return 0n;
  const d = RATE_SCALE * 10n ** BigInt(decimals.tokenIn);
  return ((capacity + 1n) * d - 1n) / k;
}

/**
 * A discount leg's 1e18-scaled rate, as Sluice computes it (src/inventory/offer.ts `discountedRate`): the gross
 * oracle output of one whole input token (`getAmountOut(tokenIn, 10^inDec)`) less the discount, rounded down,
 * rescaled from asset units to 1e18.
 */
export function discountedRate(amountOutPerUnit: bigint, ppm: bigint, outDecimals: number): bigint {
  const discountedPerUnit = (amountOutPerUnit * (PPM - ppm)) / PPM;
  return (discountedPerUnit * RATE_SCALE) / 10n ** BigInt(outDecimals);
}

/**
 * What a discount swap pays: the adapter rounds the gross oracle output (`getAmountOut(tokenIn, amountIn)`) down
 * first, then takes the discount off and rounds down again (DESIGN §3).
 */
export function discountSwapOutput(grossAmountOut: bigint, ppm: bigint): bigint {
  return (grossAmountOut * (PPM - ppm)) / PPM;
}

/** Direct legs and each discount are distinct legs; several sent entries of one leg merge. */
function legKey(leg: PricedLeg): string {
  return `${leg.adapter.toLowerCase()}/${leg.discount?.discountId.toLowerCase() ?? "direct"}`;
}

/**
 * The legs the solver trusts: each leg it was sent that its own chain read also shows (the same adapter, and for a
 * discount leg the same discount), at the lower of the two rates and the lower of the two capacities (a stale or
 * generous request never makes it promise more than the chain allows, nor more than Sluice offered). Legs with no
 * rate or no capacity are dropped.
 */
export function trustedLegs(sent: readonly PricedLeg[], onChain: readonly PricedLeg[]): PricedLeg[] {
  const chainByKey = new Map(onChain.map((leg) => [legKey(leg), leg]));
  const byKey = new Map<string, PricedLeg>();
  for (const leg of sent) {
    const key = legKey(leg);
    const chain = chainByKey.get(key);
    if (!chain) continue;
    const seen = byKey.get(key) ?? chain;
    byKey.set(key, {
      adapter: chain.adapter,
      rate: min(min(leg.rate, chain.rate), seen.rate),
      capacity: min(min(leg.capacity, chain.capacity), seen.capacity),
      ...(chain.discount ? { discount: chain.discount } : {}),
    });
  }
  return [...byKey.values()].filter((leg) => leg.rate > 0n && leg.capacity > 0n);
}

/** Better rate first; on equal rates the direct leg, which leaves the discount to a later swap. */
function betterAlternative(a: PricedLeg, b: PricedLeg): PricedLeg {
  if (a.rate !== b.rate) return a.rate > b.rate ? a : b;
  if (!a.discount) return a;
  return b.discount ? a : b;
}

/**
 * One leg per adapter: a direct and a discount leg on the same adapter draw on the same `getMaxAssets`, so they are
 * alternatives. The better one is kept, with the lowest capacity any of them states.
 */
export function oneLegPerAdapter(legs: readonly PricedLeg[]): PricedLeg[] {
  const byAdapter = new Map<string, PricedLeg>();
  for (const leg of legs) {
    const key = leg.adapter.toLowerCase();
    const seen = byAdapter.get(key);
    if (!seen) {
      byAdapter.set(key, leg);
      continue;
    }
    byAdapter.set(key, { ...betterAlternative(seen, leg), capacity: min(seen.capacity, leg.capacity) });
  }
  return [...byAdapter.values()];
}

export interface LegAllocation {
  adapter: Address;
  amountIn: bigint;
  /**
   * What the leg contributes and what the fill asks the adapter for: its rounded-down output less one unit (never
   * below 0), so a rounding difference in an adapter's own math cannot make the swap exceed its rate. A fill plan
   * replaces it on a discount leg with the discount swap's exact output (fill-plan.ts).
   */
  amountOut: bigint;
  /** Present on a discount leg. */
  discount?: LegDiscount;
}

export type Allocation =
  | { kind: "allocated"; legs: LegAllocation[]; amountOut: bigint }
  /** Exact input: the whole amount could not be placed within the legs' capacities. */
  | { kind: "insufficient"; placeable: bigint };

/** Best rate first; equal rates to the larger capacity, then by address, so a plan is deterministic. */
function byPreference(a: PricedLeg, b: PricedLeg): number {
  if (a.rate !== b.rate) return a.rate > b.rate ? -1 : 1;
  if (a.capacity !== b.capacity) return a.capacity > b.capacity ? -1 : 1;
  const x = a.adapter.toLowerCase();
  const y = b.adapter.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Places `amountIn` greedily on the best-rate legs, each taking the most input whose output fits its capacity; of
 * the alternatives on one adapter only the better one is used.
 */
export function allocate(amountIn: bigint, legs: readonly PricedLeg[], decimals: TokenDecimals): Allocation {
  let remaining = amountIn;
  const placed: LegAllocation[] = [];
  for (const leg of oneLegPerAdapter(legs).sort(byPreference)) {
    if (remaining === 0n) break;
    if (leg.rate <= 0n || leg.capacity <= 0n) continue;
    const amount = min(remaining, maxInputWithin(leg.capacity, leg.rate, decimals));
    if (amount === 0n) continue;
    const gross = amountOutAt(amount, leg.rate, decimals);
    placed.push({
      adapter: leg.adapter,
      amountIn: amount,
      amountOut: gross > 0n ? gross - 1n : 0n,
      ...(leg.discount ? { discount: leg.discount } : {}),
    });
    remaining -= amount;
  }
  if (remaining > 0n) return { kind: "insufficient", placeable: amountIn - remaining };
  return { kind: "allocated", legs: placed, amountOut: placed.reduce((sum, leg) => sum + leg.amountOut, 0n) };
}

/** `amount × (10000 − marginBps) / 10000`, rounded down. */
export function withMargin(amount: bigint, marginBps: number): bigint {
  return (amount * (BPS - BigInt(marginBps))) / BPS;
}

export type DeclineReason = "no_legs" | "insufficient_capacity" | "zero_output";

export type QuoteDecision =
  | { kind: "quote"; amountOut: bigint; allocation: Extract<Allocation, { kind: "allocated" }> }
  | { kind: "decline"; reason: DeclineReason };

export interface PriceQuoteInput {
  amountIn: bigint;
  /** The legs of the request (already limited to what the solver may fill through). */
  sent: readonly PricedLeg[];
  /** The same adapters as the solver's own chain read shows them. */
  onChain: readonly PricedLeg[];
  decimals: TokenDecimals;
  marginBps: number;
}

/** The quote: the allocation's output (one unit less per leg) less the margin; a decline when nothing fits. */
export function priceQuote(input: PriceQuoteInput): QuoteDecision {
  const legs = trustedLegs(input.sent, input.onChain);
  if (legs.length === 0) return { kind: "decline", reason: "no_legs" };
  const allocation = allocate(input.amountIn, legs, input.decimals);
  if (allocation.kind === "insufficient") return { kind: "decline", reason: "insufficient_capacity" };
  const amountOut = withMargin(allocation.amountOut, input.marginBps);
  if (amountOut === 0n) return { kind: "decline", reason: "zero_output" };
  return { kind: "quote", amountOut, allocation };
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

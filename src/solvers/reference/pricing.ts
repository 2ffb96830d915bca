// The reference solver's pricing, as pure functions over bigints (DESIGN.md §3 rate math, §4 reference solver):
// which legs it trusts, how it spreads an exact input over them, and what it quotes. The same allocation plans a
// fill, so what the solver quotes is what its fill asks the adapters for.
import type { Address } from "viem";

export const RATE_SCALE = 10n ** 18n;
export const BPS = 10_000n;

export interface TokenDecimals {
  tokenIn: number;
  tokenOut: number;
}

/** One adapter as the solver prices it: a 1e18-scaled rate and a capacity in tokenOut base units. */
export interface PricedLeg {
  adapter: Address;
  rate: bigint;
  capacity: bigint;
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
 * The legs the solver trusts: each leg it was sent that its own chain read also shows, at the lower of the two
 * rates and the lower of the two capacities (a stale or generous request never makes it promise more than the
 * chain allows, nor more than Sluice offered). Legs with no rate or no capacity are dropped.
 */
export function trustedLegs(sent: readonly PricedLeg[], onChain: readonly PricedLeg[]): PricedLeg[] {
  const chainByAdapter = new Map(onChain.map((leg) => [leg.adapter.toLowerCase(), leg]));
  const byAdapter = new Map<string, PricedLeg>();
  for (const leg of sent) {
    const key = leg.adapter.toLowerCase();
    const chain = chainByAdapter.get(key);
    if (!chain) continue;
    const seen = byAdapter.get(key) ?? chain;
    byAdapter.set(key, {
      adapter: chain.adapter,
      rate: min(min(leg.rate, chain.rate), seen.rate),
      capacity: min(min(leg.capacity, chain.capacity), seen.capacity),
    });
  }
  return [...byAdapter.values()].filter((leg) => leg.rate > 0n && leg.capacity > 0n);
}

export interface LegAllocation {
  adapter: Address;
  amountIn: bigint;
  /**
   * What the leg contributes and what the fill asks the adapter for: its rounded-down output less one unit (never
   * below 0), so a rounding difference in an adapter's own math cannot make the swap exceed its rate.
   */
  amountOut: bigint;
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

/** Places `amountIn` greedily on the best-rate legs, each taking the most input whose output fits its capacity. */
export function allocate(amountIn: bigint, legs: readonly PricedLeg[], decimals: TokenDecimals): Allocation {
  let remaining = amountIn;
  const placed: LegAllocation[] = [];
  for (const leg of [...legs].sort(byPreference)) {
    if (remaining === 0n) break;
    if (leg.rate <= 0n || leg.capacity <= 0n) continue;
    const amount = min(remaining, maxInputWithin(leg.capacity, leg.rate, decimals));
    if (amount === 0n) continue;
    const gross = amountOutAt(amount, leg.rate, decimals);
    placed.push({ adapter: leg.adapter, amountIn: amount, amountOut: gross > 0n ? gross - 1n : 0n });
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

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

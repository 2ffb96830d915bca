// The reference solver's pricing as pure functions: rate math and rounding, the most input a capacity takes, the
// greedy allocation across legs, one unit less per leg, the margin, the lower of sent and on-chain wins, declines;
// discount legs (Sluice's rate, the exact swap output, a direct and a discount leg sharing an adapter's capacity)
// and a fill plan's exact discount outputs.
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { AdapterState } from "../../src/inventory/adapter-state.ts";
import { discountedRate as sluiceDiscountedRate } from "../../src/inventory/offer.ts";
import { allocateForFill } from "../../src/reference-solver/fill-plan.ts";
import {
  allocate,
  amountOutAt,
  discountedRate,
  discountSwapOutput,
  maxInputWithin,
  oneLegPerAdapter,
  type PricedLeg,
  priceQuote,
  trustedLegs,
  withMargin,
} from "../../src/reference-solver/pricing.ts";

const RWA = 10n ** 18n; // 18 decimals in
const USD = 10n ** 6n; // 6 decimals out
const RATE = 10n ** 16n; // 0.01 as a 1e18-scaled rate
const decimals = { tokenIn: 18, tokenOut: 6 };

const A = "0x00000000000000000000000000000000000000aa" as Address;
const B = "0x00000000000000000000000000000000000000bb" as Address;
const C = "0x00000000000000000000000000000000000000cc" as Address;
const leg = (adapter: Address, rate: bigint, capacity: bigint): PricedLeg => ({ adapter, rate, capacity });

/** Deterministic pseudo-random bigints below 2^bits (a 64-bit LCG), so a failure reproduces. */
function randoms(seed: bigint) {
  let state = seed;
  return (bits: number): bigint => {
    let value = 0n;
    for (let i = 0; i < bits; i += 32) {
      state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      value = (value << 32n) | (state >> 32n);
    }
    return value & ((1n << BigInt(bits)) - 1n);
  };
}

describe("rate math", () => {
  it("converts amountIn × rate × 10^outDec / (1e18 × 10^inDec), rounding down", () => {
    expect(amountOutAt(1000n * RWA, 9995n * 10n ** 14n, decimals)).toBe(999_500_000n);
    // 1.999999999999 units of tUSD round down to 1.
    expect(amountOutAt(2n * 10n ** 12n - 1n, RWA, decimals)).toBe(1n);
    expect(amountOutAt(10n ** 12n - 1n, RWA, decimals)).toBe(0n);
    // Upward in decimals (6 → 18) nothing is lost.
    expect(amountOutAt(3n, 2n * RWA, { tokenIn: 6, tokenOut: 18 })).toBe(6n * 10n ** 12n);
  });

  it("finds the most input whose rounded-down output fits a capacity", () => {
    // At rate 1.0, 50 tUSD take 50.000001 tRWA less one wei: the output is exactly 50 tUSD, one more wei is 50.000001.
    const most = maxInputWithin(50n * USD, RWA, decimals);
    expect(most).toBe(50n * RWA + 10n ** 12n - 1n);
    expect(amountOutAt(most, RWA, decimals)).toBe(50n * USD);
    expect(amountOutAt(most + 1n, RWA, decimals)).toBe(50n * USD + 1n);
    expect(maxInputWithin(50n * USD, 0n, decimals)).toBe(0n);

    const random = randoms(42n);
    for (let i = 0; i < 500; i++) {
      const d = { tokenIn: Number(random(5) % 25n), tokenOut: Number(random(5) % 25n) };
      const rate = random(70) + 1n;
      const capacity = random(90);
      const x = maxInputWithin(capacity, rate, d);
      expect(amountOutAt(x, rate, d) <= capacity, `x fits: ${x} ${rate} ${capacity}`).toBe(true);
      expect(amountOutAt(x + 1n, rate, d) > capacity, `x + 1 does not: ${x} ${rate} ${capacity}`).toBe(true);
    }
  });

  it("takes the margin in basis points, rounding down", () => {
    expect(withMargin(10_000n, 10)).toBe(9_990n);
    expect(withMargin(9_999n, 30)).toBe(9_969n); // 9999 × 9970 / 10000 = 9969.003
    expect(withMargin(1n, 10)).toBe(0n);
    expect(withMargin(123n, 0)).toBe(123n);
  });
});

describe("allocation", () => {
  it("fills the best rate first up to its capacity, then the next, one unit less per leg", () => {
    const legs = [leg(A, 99n * RATE, 1000n * USD), leg(B, RWA, 50n * USD), leg(C, 98n * RATE, 1000n * USD)];
    const allocation = allocate(200n * RWA, legs, decimals);
    expect(allocation).toEqual({
      kind: "allocated",
      legs: [
        // B (rate 1.0) up to its 50 tUSD: 50 tUSD, quoted as 49.999999.
        { adapter: B, amountIn: 50n * RWA + 10n ** 12n - 1n, amountOut: 50n * USD - 1n },
        // A (0.99) takes the rest: 149.999999000000000001 tRWA → 148.499999 tUSD (rounded down), less one unit.
        { adapter: A, amountIn: 149_999_999_000_000_000_001n, amountOut: 148_499_998n },
      ],
      amountOut: 198_499_997n,
    });
    // C is never touched while better legs have room; the legs' inputs add up to the whole amount.
    if (allocation.kind !== "allocated") throw new Error("unreachable");
    expect(allocation.legs.reduce((sum, l) => sum + l.amountIn, 0n)).toBe(200n * RWA);
  });

  it("spills over several capacity-bound legs in rate order and breaks rate ties by capacity", () => {
    const legs = [leg(A, RWA, 10n * USD), leg(B, RWA, 30n * USD), leg(C, 2n * RWA, 5n * USD)];
    const allocation = allocate(30n * RWA, legs, decimals);
    if (allocation.kind !== "allocated") throw new Error(`expected an allocation, got ${allocation.kind}`);
    expect(allocation.legs.map((l) => l.adapter)).toEqual([C, B]);
    expect(allocation.legs[0]).toEqual({
      adapter: C,
      amountIn: 2_500_000_499_999_999_999n,
      amountOut: 4_999_999n,
    });
    expect(allocation.legs[1]!.amountIn).toBe(30n * RWA - 2_500_000_499_999_999_999n);
  });

  it("counts a leg whose output rounds to zero as zero, not minus one", () => {
    const allocation = allocate(10n ** 11n, [leg(A, RWA, 10n * USD)], decimals);
    expect(allocation).toEqual({
      kind: "allocated",
      legs: [{ adapter: A, amountIn: 10n ** 11n, amountOut: 0n }],
      amountOut: 0n,
    });
  });

  it("reports how much could be placed when the capacities cannot take the whole amount", () => {
    const legs = [leg(A, RWA, 10n * USD), leg(B, RWA, 0n), leg(C, 0n, 1000n * USD)];
    expect(allocate(20n * RWA, legs, decimals)).toEqual({
      kind: "insufficient",
      placeable: 10n * RWA + 10n ** 12n - 1n,
    });
  });
});

describe("trusted legs", () => {
  it("takes the lower of the sent and the on-chain rate and capacity, only for adapters on both sides", () => {
    const sent = [leg(A, RWA, 1000n * USD), leg(B, 99n * RATE, 10n * USD), leg(C, RWA, 1000n * USD)];
    const onChain = [
      leg(A, 99n * RATE, 30n * USD),
      leg(B, RWA, 1000n * USD),
      leg("0x00000000000000000000000000000000000000dd", RWA, 1000n * USD),
    ];
    expect(trustedLegs(sent, onChain)).toEqual([
      leg(A, 99n * RATE, 30n * USD),
      leg(B, 99n * RATE, 10n * USD),
    ]);
  });

  it("matches adapters case-insensitively and drops legs without rate or capacity", () => {
    const upper = "0x00000000000000000000000000000000000000AA" as Address;
    expect(trustedLegs([leg(upper, RWA, 5n)], [leg(A, RWA, 7n)])).toEqual([leg(A, RWA, 5n)]);
    expect(trustedLegs([leg(A, RWA, 0n)], [leg(A, RWA, 7n)])).toEqual([]);
    expect(trustedLegs([leg(A, 0n, 5n)], [leg(A, RWA, 7n)])).toEqual([]);
  });
});

describe("priceQuote", () => {
  const base = { decimals, marginBps: 10 };

  it("quotes the legs' outputs, one unit less per leg, less the margin", () => {
    const legs = [leg(A, 99n * RATE, 1000n * USD), leg(B, RWA, 50n * USD)];
    const decision = priceQuote({ ...base, amountIn: 200n * RWA, sent: legs, onChain: legs });
    expect(decision.kind).toBe("quote");
    if (decision.kind !== "quote") return;
    // (49.999999 + 148.499998) × 0.999 rounded down
    expect(decision.amountOut).toBe(198_301_497n);
    expect(decision.allocation.amountOut).toBe(198_499_997n);
  });

  it("prices with the lower on-chain rate when the request is generous, and with the lower sent capacity", () => {
    const decision = priceQuote({
      ...base,
      marginBps: 0,
      amountIn: 10n * RWA,
      sent: [leg(A, RWA, 1000n * USD), leg(B, RWA, 5n * USD)],
      onChain: [leg(A, 99n * RATE, 1000n * USD), leg(B, RWA, 1000n * USD)],
    });
    if (decision.kind !== "quote") throw new Error(`expected a quote, got ${decision.reason}`);
    // B (1.0) only up to the 5 tUSD Sluice offered, A at its on-chain 0.99 for the rest.
    expect(decision.allocation.legs.map((l) => [l.adapter, l.amountOut])).toEqual([
      [B, 5n * USD - 1n],
      [A, 4_949_999n - 1n],
    ]);
    expect(decision.amountOut).toBe(5n * USD - 1n + 4_949_998n);
  });

  it("declines when no leg is left, when the whole amount cannot be placed, and when nothing would come out", () => {
    const legs = [leg(A, RWA, 10n * USD)];
    expect(priceQuote({ ...base, amountIn: RWA, sent: legs, onChain: [] })).toEqual({
      kind: "decline",
      reason: "no_legs",
    });
    expect(priceQuote({ ...base, amountIn: 11n * RWA, sent: legs, onChain: legs })).toEqual({
      kind: "decline",
      reason: "insufficient_capacity",
    });
    expect(priceQuote({ ...base, amountIn: 10n ** 12n, sent: legs, onChain: legs })).toEqual({
      kind: "decline",
      reason: "zero_output",
    });
    expect(priceQuote({ ...base, amountIn: 0n, sent: legs, onChain: legs })).toEqual({
      kind: "decline",
      reason: "zero_output",
    });
  });
});

describe("discount legs", () => {
  const ID = `0x${"d1".repeat(32)}` as Hex;
  const OTHER_ID = `0x${"d2".repeat(32)}` as Hex;
  const discountLeg = (adapter: Address, rate: bigint, capacity: bigint, ppm = 600n, id = ID): PricedLeg => ({
    adapter,
    rate,
    capacity,
    discount: { discountId: id, ppm },
  });

  it("prices the oracle output of one token less the discount exactly as Sluice offers it", () => {
    for (const [perUnit, ppm, outDecimals] of [
      [1_000_000n, 600n, 6],
      [1_002_000n, 600n, 6],
      [999_999n, 5000n, 6],
      [10n ** 18n + 7n, 1n, 18],
      [123_456_789n, 999_999n, 8],
    ] as const) {
      const state = { oracleAmountOutPerUnit: perUnit, assetDecimals: outDecimals } as AdapterState;
      expect(discountedRate(perUnit, ppm, outDecimals)).toBe(sluiceDiscountedRate(state, ppm));
    }
    // 1.0 less 600 ppm.
    expect(discountedRate(1_000_000n, 600n, 6)).toBe(9994n * 10n ** 14n);
  });

  it("takes the discount off the rounded-down gross output and rounds down again", () => {
    expect(discountSwapOutput(1_000_000n, 600n)).toBe(999_400n);
    expect(discountSwapOutput(1_234_567n, 600n)).toBe(1_233_826n); // 1233826.2598
    expect(discountSwapOutput(1n, 600n)).toBe(0n);
    expect(discountSwapOutput(5n, 0n)).toBe(5n);
  });

  it("keeps a discount leg apart from the direct leg on its adapter, each at the lower of sent and own rate", () => {
    const sent = [leg(A, RWA, 1000n * USD), discountLeg(A, 9994n * 10n ** 14n, 1000n * USD)];
    const onChain = [
      leg(A, 9995n * 10n ** 14n, 300n * USD),
      discountLeg(A, 9990n * 10n ** 14n, 300n * USD),
      // A discount the request did not name is not trusted.
      discountLeg(B, RWA, 300n * USD, 600n, OTHER_ID),
    ];
    expect(trustedLegs(sent, onChain)).toEqual([
      leg(A, 9995n * 10n ** 14n, 300n * USD),
      discountLeg(A, 9990n * 10n ** 14n, 300n * USD),
    ]);
    // A discount leg that the solver's own read does not show (not listed, or another discount) is dropped.
    expect(trustedLegs([discountLeg(A, RWA, 5n, 600n, OTHER_ID)], onChain)).toEqual([]);
  });

  it("uses a direct and a discount leg on one adapter as alternatives: the better one, the capacity once", () => {
    // The discount leg on A is better than A's direct leg; both draw on A's 100 tUSD.
    const legs = [
      leg(A, 99n * RATE, 100n * USD),
      discountLeg(A, RWA, 100n * USD),
      leg(B, 98n * RATE, 1000n * USD),
    ];
    expect(oneLegPerAdapter(legs)).toEqual([
      discountLeg(A, RWA, 100n * USD),
      leg(B, 98n * RATE, 1000n * USD),
    ]);
    const allocation = allocate(300n * RWA, legs, decimals);
    if (allocation.kind !== "allocated") throw new Error("expected an allocation");
    expect(allocation.legs).toEqual([
      {
        adapter: A,
        amountIn: 100n * RWA + 10n ** 12n - 1n,
        amountOut: 100n * USD - 1n,
        discount: { discountId: ID, ppm: 600n },
      },
      { adapter: B, amountIn: 200n * RWA - 10n ** 12n + 1n, amountOut: 195_999_998n },
    ]);
    // A's capacity was used once: without the alternative, the same 100 tUSD.
    expect(allocation.legs.filter((l) => l.adapter === A)).toHaveLength(1);

    // An exact input that only fits if A counted twice is declined, not placed on A's capacity twice.
    const onlyA = [leg(A, RWA, 100n * USD), discountLeg(A, RWA, 100n * USD)];
    expect(allocate(150n * RWA, onlyA, decimals)).toMatchObject({ kind: "insufficient" });
    // On equal rates the direct leg is used and the discount left for later; the lower capacity counts.
    expect(oneLegPerAdapter([discountLeg(A, RWA, 80n), leg(A, RWA, 100n)])).toEqual([leg(A, RWA, 80n)]);
  });

  it("quotes a discount leg at the lower of the sent and its own rate, sharing the adapter's capacity", () => {
    const sent = [leg(A, 9995n * 10n ** 14n, 50n * USD), discountLeg(A, 1_001_398n * 10n ** 12n, 50n * USD)];
    const onChain = [leg(A, 9995n * 10n ** 14n, 50n * USD), discountLeg(A, 9994n * 10n ** 14n, 40n * USD)];
    const decision = priceQuote({ decimals, marginBps: 0, amountIn: 10n * RWA, sent, onChain });
    if (decision.kind !== "quote") throw new Error(`expected a quote, got ${decision.reason}`);
    // The generous sent discount rate is not believed: 0.9994 < the direct 0.9995, so the direct leg wins.
    expect(decision.allocation.legs).toEqual([{ adapter: A, amountIn: 10n * RWA, amountOut: 9_994_999n }]);
    expect(priceQuote({ decimals, marginBps: 0, amountIn: 60n * RWA, sent, onChain })).toEqual({
      kind: "decline",
      reason: "insufficient_capacity",
    });
  });
});

describe("fill plan: a discount leg's exact output", () => {
  const ID = `0x${"d1".repeat(32)}` as Hex;
  // An oracle price of 1.002 tUSD per tRWA: the adapter's getAmountOut.
  const PRICE = 1_002n * 10n ** 15n;
  const gross = async (_adapter: Address, amountIn: bigint) => (amountIn * PRICE * USD) / (RWA * RWA);
  const rate = discountedRate(1_002_000n, 600n, 6);
  const discountLeg = (capacity: bigint): PricedLeg => ({
    adapter: A,
    rate,
    capacity,
    discount: { discountId: ID, ppm: 600n },
  });

  it("plans a discount leg with what the adapter pays, not the rate's estimate", async () => {
    const plan = await allocateForFill({
      amountIn: 100n * RWA,
      legs: [discountLeg(1000n * USD)],
      decimals,
      grossAmountOut: gross,
    });
    // floor(floor(100 × 1.002 tUSD) × 999400 / 1e6) = floor(100_200_000 × 0.9994) = 100_139_880.
    expect(plan).toEqual({
      kind: "allocated",
      legs: [
        {
          adapter: A,
          amountIn: 100n * RWA,
          amountOut: 100_139_880n,
          discount: { discountId: ID, ppm: 600n },
        },
      ],
      amountOut: 100_139_880n,
    });
    // The rate's estimate (one unit less) is lower: the quote never promises more than the fill gets.
    expect(amountOutAt(100n * RWA, rate, decimals) - 1n).toBeLessThanOrEqual(100_139_880n);
  });

  it("lowers a capacity-bound discount leg until its exact output fits, the rest going to the next leg", async () => {
    const capacity = 300n * USD;
    const legs = [discountLeg(capacity), leg(B, 9995n * 10n ** 14n, 1_000_000n * USD)];
    // By the rate alone the discount leg would take input whose exact output overshoots its 300 tUSD.
    const naive = allocate(1000n * RWA, legs, decimals);
    if (naive.kind !== "allocated") throw new Error("expected an allocation");
    const naiveExact = discountSwapOutput(await gross(A, naive.legs[0]!.amountIn), 600n);
    expect(naiveExact).toBeGreaterThan(capacity);

    const plan = await allocateForFill({ amountIn: 1000n * RWA, legs, decimals, grossAmountOut: gross });
    if (plan.kind !== "allocated") throw new Error("expected an allocation");
    const [onA, onB] = plan.legs;
    expect(onA!.adapter).toBe(A);
    expect(onA!.amountOut).toBe(discountSwapOutput(await gross(A, onA!.amountIn), 600n));
    expect(onA!.amountOut).toBeLessThanOrEqual(capacity);
    expect(onA!.amountOut).toBeGreaterThan(capacity - USD / 1000n); // within a thousandth of a tUSD
    expect(onB).toMatchObject({ adapter: B, amountIn: 1000n * RWA - onA!.amountIn });
    expect(plan.amountOut).toBe(onA!.amountOut + onB!.amountOut);
  });

  it("leaves out a discount leg whose output keeps overshooting its capacity", async () => {
    const legs = [discountLeg(300n * USD), leg(B, 9995n * 10n ** 14n, 1_000_000n * USD)];
    // An oracle that always pays more than the capacity, however little goes in.
    const plan = await allocateForFill({
      amountIn: 10n * RWA,
      legs,
      decimals,
      grossAmountOut: async () => 400n * USD,
    });
    expect(plan).toEqual({
      kind: "allocated",
      legs: [{ adapter: B, amountIn: 10n * RWA, amountOut: 9_994_999n }],
      amountOut: 9_994_999n,
    });
  });
});

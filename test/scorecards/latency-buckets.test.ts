// The log-scale latency buckets: every latency from 1 ms to the last bound is reported within the stated error
// bound, percentiles take the nearest rank, and histograms of different lengths add up.
import { describe, expect, it } from "vitest";
import {
  addCounts,
  countOf,
  LATENCY_BOUNDS_MS,
  latencyBucket,
  PERCENTILE_ERROR_BOUND,
  percentile,
} from "../../src/scorecards/latency-buckets.ts";

describe("latency buckets", () => {
  it("reports any latency from 1 ms to ~3.9 h within 9.1 %", () => {
    expect(PERCENTILE_ERROR_BOUND).toBeLessThan(0.091);
    const last = LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
    let worst = 0;
    for (let ms = 1; ms < last; ms *= 1.0137) {
      const reported = percentile(countOf(ms), 0.5)!;
      worst = Math.max(worst, Math.abs(reported / ms - 1));
    }
    expect(worst).toBeLessThan(0.091);
    expect(worst).toBeGreaterThan(0.08);
    expect(percentile(countOf(0.2), 0.5)).toBe(0.5);
    expect(percentile(countOf(last * 10), 0.99)).toBe(last);
  });

  it("puts a bound in the bucket it starts", () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(0.999)).toBe(0);
    expect(latencyBucket(1)).toBe(1);
    expect(latencyBucket(1.188)).toBe(1);
    expect(latencyBucket(1.189)).toBe(2);
  });

  it("takes the nearest rank and is null without samples", () => {
    // 98 fast answers and 2 slow ones: p50 fast, p99 slow; 99 fast: p99 still fast.
    const fast = countOf(10);
    const slow = countOf(1000);
    const mixed = addCounts(
      addCounts(
        [],
        fast.map((n) => n * 98),
      ),
      slow.map((n) => n * 2),
    );
    const near = (value: number | null, target: number) =>
      Math.abs(value! / target - 1) < PERCENTILE_ERROR_BOUND;
    expect(near(percentile(mixed, 0.5), 10)).toBe(true);
    expect(near(percentile(mixed, 0.99), 1000)).toBe(true);
    const mostly = addCounts(
      addCounts(
        [],
        fast.map((n) => n * 99),
      ),
      slow,
    );
    expect(near(percentile(mostly, 0.99), 10)).toBe(true);
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([0, 0], 0.5)).toBeNull();
  });

  it("adds and subtracts histograms of different lengths", () => {
    expect(addCounts([1, 2], [0, 0, 3])).toEqual([1, 2, 3]);
    expect(addCounts([1, 2, 3], [1], -1)).toEqual([0, 2, 3]);
  });
});

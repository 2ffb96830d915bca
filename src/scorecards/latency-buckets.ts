// Latencies are counted in fixed log-scale buckets, so per-minute and per-hour counts add up exactly and any window's
// percentiles come from summed counts instead of the raw rows. Bucket k (k ≥ 1) holds [BOUNDS[k-1], BOUNDS[k]) ms,
// bucket 0 everything below 1 ms, the last everything from ~3.9 h up. Neighbouring bounds are a factor 2^(1/4) apart;
// a percentile is reported as its bucket's geometric midpoint, so it is within a factor 2^(1/8) of the true value:
// at most 9.1 % off (below 1 ms: at most 0.5 ms off). The same bounds are in migration 0008's
// solver_latency_bucket(), written out as decimals so both sides compare the same doubles.

/** Steps per doubling. */
const STEPS = 4;
/** 2^(95/4) ms ≈ 3.9 h: fills slower than that all land in the last bucket. */
const BOUND_COUNT = 96;

/** The buckets' lower bounds in ms (rounded to the microsecond, as stored latencies are). */
export const LATENCY_BOUNDS_MS: readonly number[] = Array.from({ length: BOUND_COUNT }, (_, i) =>
  Number((2 ** (i / STEPS)).toFixed(3)),
);

/** Buckets per histogram (one below the first bound, one per bound). */
export const LATENCY_BUCKETS = BOUND_COUNT + 1;

/** The relative error bound of a reported percentile (above 1 ms). */
export const PERCENTILE_ERROR_BOUND = 2 ** (1 / (2 * STEPS)) - 1;

/** The bucket of a latency: how many bounds are ≤ it (PostgreSQL's width_bucket over the same bounds). */
export function latencyBucket(ms: number): number {
  let low = 0;
  let high = BOUND_COUNT;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (LATENCY_BOUNDS_MS[mid]! <= ms) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Adds `b` into `a` element-wise (histograms are stored without trailing zeros, so lengths differ). */
export function addCounts(a: number[], b: readonly number[], sign = 1): number[] {
  for (let i = 0; i < b.length; i++) a[i] = (a[i] ?? 0) + sign * b[i]!;
  return a;
}

/** A one-count histogram of `ms`, trimmed after its bucket. */
export function countOf(ms: number): number[] {
  const counts = new Array<number>(latencyBucket(ms) + 1).fill(0);
  counts[counts.length - 1] = 1;
  return counts;
}

/**
 * The nearest-rank percentile (0 < p ≤ 1) of a histogram as its bucket's geometric midpoint, in ms rounded to the
 * microsecond; null for an empty histogram.
 */
export function percentile(counts: readonly number[], p: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let k = 0; k < counts.length; k++) {
    seen += counts[k]!;
    if (seen >= rank) return bucketValue(k);
  }
  return bucketValue(counts.length - 1);
}

function bucketValue(k: number): number {
  if (k === 0) return 0.5;
  const low = LATENCY_BOUNDS_MS[k - 1]!;
  const high = LATENCY_BOUNDS_MS[k];
  // The open last bucket: its lower bound.
  const value = high === undefined ? low : Math.sqrt(low * high);
  return Math.round(value * 1000) / 1000;
}

/** The bounds as a PostgreSQL float8 array literal (for the migration and its test). */
export function boundsSqlArray(): string {
  return `ARRAY[${LATENCY_BOUNDS_MS.map((b) => b.toFixed(3)).join(",")}]::float8[]`;
}

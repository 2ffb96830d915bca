// The points formula's fixed-point definitions, shared by the ledger and the replay verifier so both compute the
// same quantities by different paths. Points are 1e48 units; USD stake is 1e24 units.
//
//   usd(pair)   = floor(stake × answer × 1e24 / 10^(collateralDecimals + feedDecimals))
//   points(n)   = rate_n × S_n × Δt / (1e24 × 3600)                  S_n = Σ usd(pair) over n's pairs
//
// Every split numerator is kept at the common denominator POINTS_DENOMINATOR = 1e24 × 3600 × BPS², so the
// network share and operator fee (one BPS factor each) and the curator fee inside the vault part (two) all stay
// integers: a receiver's points are the floor of its exact cumulative numerator over that denominator.

/** Basis points in one whole. */
export const BPS = 10_000n;
/** Fixed-point scale of USD stake. */
export const USD_SCALE = 10n ** 24n;
export const SECONDS_PER_HOUR = 3_600n;
/** The denominator of every cumulative points numerator. */
export const POINTS_DENOMINATOR = USD_SCALE * SECONDS_PER_HOUR * BPS * BPS;

/** The smaller of two bigints (Math.min takes numbers only). */
export function minOf(a: bigint, b: bigint): bigint {
  if (a < b) return a;
  return b;
}

/** How a collateral amount becomes 1e24 USD with a feed's answer: × multiplier / divisor (one of them is 1). */
export interface UsdConversion {
  multiplier: bigint;
  divisor: bigint;
}

export function usdConversion(collateralDecimals: number, feedDecimals: number): UsdConversion {
  const shift = 24 - collateralDecimals - feedDecimals;
  return shift >= 0
    ? { multiplier: 10n ** BigInt(shift), divisor: 1n }
    : { multiplier: 1n, divisor: 10n ** BigInt(-shift) };
}

/** The 1e24-USD value of a stake in collateral units; a non-positive price values it at 0. */
export function usdStake(stake: bigint, answer: bigint, conversion: UsdConversion): bigint {
  if (stake === 0n || answer <= 0n) return 0n;
  return conversion.divisor === 1n
    ? stake * answer * conversion.multiplier
    : (stake * answer) / conversion.divisor;
}

/** The network a subnetwork belongs to: its top 20 bytes, lowercase. */
export function subnetworkNetwork(subnetwork: string): `0x${string}` {
  return `0x${subnetwork.slice(2, 42).toLowerCase()}`;
}

/**
 * A network's per-second numerator weights per 1e24 USD of stake (multiply by usd × Δt): the whole emission, the
 * operator fee, the network share and the vault part (before the curator fee, which multiplies by a further BPS
 * factor: `curatorFeeBps` to the curator, the rest to the stakers).
 */
export interface NetworkWeights {
  emitted: bigint;
  operator: bigint;
  network: bigint;
  vault: bigint;
}

export function networkWeights(
  ratePerUsdHour: bigint,
  operatorFeeBps: number,
  networkShareBps: number,
): NetworkWeights {
  const operatorFee = BigInt(operatorFeeBps);
  const networkShare = BigInt(networkShareBps);
  return {
    emitted: ratePerUsdHour * BPS * BPS,
    operator: ratePerUsdHour * operatorFee * BPS,
    network: ratePerUsdHour * networkShare * BPS,
    vault: ratePerUsdHour * (BPS - operatorFee - networkShare),
  };
}

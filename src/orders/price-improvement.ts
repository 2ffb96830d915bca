// How much better than quoted an order was committed, and what its fill delivered: the arithmetic of the order row's
// amount fields, in one place so every reader (the order record, a scorecard's average) counts the same way.

/** An amount in tokenOut base units, as a decimal string, and the same relative to the quoted total in bps. */
export interface PriceImprovement {
  amount: string;
  bps: number;
}

/**
 * committed − quoted, and ⌊(committed − quoted) × 10000 / quoted⌋ (rounded toward −∞, so a shortfall would never
 * round up to 0). A quoted total of 0 cannot be stored (a zero quote is rejected), but gives 0 bps rather than throw.
 */
export function priceImprovement(quoted: bigint, committed: bigint): PriceImprovement {
  const delta = committed - quoted;
  return { amount: delta.toString(), bps: quoted === 0n ? 0 : Number(floorDiv(delta * 10_000n, quoted)) };
}

/** The sum of the amounts of `entries` paid in `token` (addresses compared case-insensitively). */
export function totalOf(
  entries: ReadonlyArray<{ token: string; amount: string | bigint }>,
  token: string,
): bigint {
  const wanted = token.toLowerCase();
  let sum = 0n;
  for (const entry of entries) if (entry.token.toLowerCase() === wanted) sum += BigInt(entry.amount);
  return sum;
}

/** ⌊a / b⌋ for b > 0 (BigInt division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n ? quotient - 1n : quotient;
}

// Exact points amounts. Partner values arrive as decimal text (from a JSON number of any size, or a string),
// possibly with a fraction or an exponent; they are converted to an integer in the points type's smallest
// unit with bigint arithmetic only, and refused when the conversion would lose anything.
import { MAX_UINT256 } from "../shared/wire.ts";

/** The largest decimals a points type may declare (ours uses 48). */
export const MAX_POINTS_DECIMALS = 77;

export class InvalidAmountError extends Error {
  override name = "InvalidAmountError";
}

/** A non-negative decimal number as `coefficient × 10^exponent`, exactly. */
export interface ExactDecimal {
  coefficient: bigint;
  exponent: number;
}

const DECIMAL_PATTERN = /^\+?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$|^\+?\.(\d+)(?:[eE]([+-]?\d+))?$/;

/** Parses non-negative decimal text such as `12`, `12.50`, `1.5e+21`, `.5`. */
export function parseExactDecimal(text: string): ExactDecimal {
  const trimmed = text.trim();
  const match = DECIMAL_PATTERN.exec(trimmed);
  if (!match)
    throw new InvalidAmountError(`not a non-negative decimal number: ${JSON.stringify(clip(text))}`);
  const integerDigits = match[1] ?? "";
  const fractionDigits = match[2] ?? match[4] ?? "";
  const exponentText = match[3] ?? match[5] ?? "0";
  if (exponentText.replace(/^[+-]?0*/, "").length > 4) {
    throw new InvalidAmountError(`exponent out of range: ${JSON.stringify(clip(text))}`);
  }
  return {
    coefficient: BigInt(`${integerDigits}${fractionDigits}` || "0"),
    exponent: Number(exponentText) - fractionDigits.length,
  };
}

/**
 * Converts `value`, expressed in units with `fromDecimals` implied decimals, to an integer with `toDecimals`
 * implied decimals: value × 10^(toDecimals − fromDecimals). Throws when the result is not an integer or
 * exceeds uint256.
 */
export function scaleToUnits(value: ExactDecimal, fromDecimals: number, toDecimals: number): bigint {
  const shift = value.exponent + toDecimals - fromDecimals;
  let units: bigint;
  if (value.coefficient === 0n) units = 0n;
  else if (shift >= 0) {
    if (shift > 78) throw new InvalidAmountError("amount exceeds uint256");
    units = value.coefficient * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (value.coefficient % divisor !== 0n) {
      throw new InvalidAmountError(
        `amount has more than ${toDecimals} decimals and cannot be stored exactly`,
      );
    }
    units = value.coefficient / divisor;
  }
  if (units > MAX_UINT256) throw new InvalidAmountError("amount exceeds uint256");
  return units;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

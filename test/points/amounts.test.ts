import { describe, expect, it } from "vitest";
import { InvalidAmountError, parseExactDecimal, scaleToUnits } from "../../src/points/amounts.ts";
import { InvalidJsonError, parseJsonKeepingNumberText } from "../../src/shared/exact-json.ts";

describe("parseJsonKeepingNumberText", () => {
  it("keeps numbers beyond 2^53 digit for digit", () => {
    const text =
      '{"points": 123456789012345678901234567890123, "block_number": 21000000, "fraction": 0.10000000000000000001}';
    expect(parseJsonKeepingNumberText(text)).toEqual({
      points: "123456789012345678901234567890123",
      block_number: "21000000",
      fraction: "0.10000000000000000001",
    });
  });

  it("leaves digits inside strings, escaped quotes and nesting alone", () => {
    const text = '[{"a": "x\\"12\\"y", "b": [-1.5e+30, 0, true, null], "c": {"d": "7"}}]';
    expect(parseJsonKeepingNumberText(text)).toEqual([
      { a: 'x"12"y', b: ["-1.5e+30", "0", true, null], c: { d: "7" } },
    ]);
  });

  it("rejects malformed JSON, including malformed numbers", () => {
    for (const text of [
      '{"a": 01}',
      '{"a": 1.}',
      '{"a": -}',
      '{"a": 1e}',
      '{"a": }',
      "[1,]",
      '{"a": "open',
    ]) {
      expect(() => parseJsonKeepingNumberText(text), text).toThrow(InvalidJsonError);
    }
  });
});

describe("exact amounts", () => {
  it("parses integers, fractions and exponents exactly", () => {
    expect(parseExactDecimal("12")).toEqual({ coefficient: 12n, exponent: 0 });
    expect(parseExactDecimal("12.50")).toEqual({ coefficient: 1250n, exponent: -2 });
    expect(parseExactDecimal("1.5e+21")).toEqual({ coefficient: 15n, exponent: 20 });
    expect(parseExactDecimal(".5")).toEqual({ coefficient: 5n, exponent: -1 });
    expect(parseExactDecimal("7E-3")).toEqual({ coefficient: 7n, exponent: -3 });
  });

  it("refuses negative, empty and non-numeric text", () => {
    for (const text of ["-1", "", "abc", "1.2.3", "0x10", "1e99999", "NaN", "Infinity"]) {
      expect(() => parseExactDecimal(text), text).toThrow(InvalidAmountError);
    }
  });

  it("converts between decimals exactly, far beyond 2^64", () => {
    const whole = parseExactDecimal("123456789012345678901234.5");
    expect(scaleToUnits(whole, 0, 48)).toBe(1234567890123456789012345n * 10n ** 47n);
    expect(scaleToUnits(parseExactDecimal("1234567"), 6, 18)).toBe(1234567n * 10n ** 12n);
    expect(scaleToUnits(parseExactDecimal("1500000000000000000"), 18, 6)).toBe(1500000n);
    expect(scaleToUnits(parseExactDecimal("1.5e21"), 18, 18)).toBe(1500n * 10n ** 18n);
    expect(scaleToUnits(parseExactDecimal("0.000"), 0, 0)).toBe(0n);
  });

  it("refuses a conversion that would drop digits or exceed uint256", () => {
    expect(() => scaleToUnits(parseExactDecimal("1.234"), 0, 2)).toThrow(/cannot be stored exactly/);
    expect(() => scaleToUnits(parseExactDecimal("1500000000000000001"), 18, 6)).toThrow(
      /cannot be stored exactly/,
    );
    expect(() => scaleToUnits(parseExactDecimal("1e30"), 0, 48)).toThrow(/uint256/);
    expect(scaleToUnits(parseExactDecimal(((1n << 256n) - 1n).toString()), 0, 0)).toBe((1n << 256n) - 1n);
    expect(() => scaleToUnits(parseExactDecimal((1n << 256n).toString()), 0, 0)).toThrow(/uint256/);
  });
});

// The order row's amount arithmetic: improvement in units and floored bps, and totals per token.
import { describe, expect, it } from "vitest";
import { priceImprovement, totalOf } from "../../src/orders/price-improvement.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

describe("price improvement", () => {
  it("is committed − quoted, in bps rounded down", () => {
    expect(priceImprovement(99_000_000n, 99_250_000n)).toEqual({ amount: "250000", bps: 25 });
    expect(priceImprovement(10_000n, 10_001n)).toEqual({ amount: "1", bps: 1 });
    expect(priceImprovement(10_001n, 10_002n)).toEqual({ amount: "1", bps: 0 });
    expect(priceImprovement(5n, 5n)).toEqual({ amount: "0", bps: 0 });
    // Beyond 2^53: exact.
    const quoted = 2n ** 200n;
    expect(priceImprovement(quoted, quoted + quoted / 3n)).toEqual({
      amount: (quoted / 3n).toString(),
      bps: 3333,
    });
    // A shortfall (never stored) rounds toward −∞, not toward zero.
    expect(priceImprovement(10_001n, 10_000n)).toEqual({ amount: "-1", bps: -1 });
    expect(priceImprovement(0n, 7n)).toEqual({ amount: "7", bps: 0 });
  });

  it("sums the amounts paid in one token, whatever the address case", () => {
    const token = "0x00000000000000000000000000000000000000aa";
    expect(
      totalOf(
        [
          { token, amount: "5" },
          { token: token.toUpperCase().replace("0X", "0x"), amount: 7n },
          { token: "0x00000000000000000000000000000000000000bb", amount: "100" },
        ],
        token,
      ),
    ).toBe(12n);
    expect(totalOf([], token)).toBe(0n);
  });

  // The scorecards average bps in the database (migration 0008's order_price_improvement_bps): the same figures. A
  // quoted total of 0 (never stored) is null there, left out of the average; 0 here.
  it.each(databaseKinds)("counts the same bps in SQL as in TypeScript (%s)", async (kind) => {
    const database = await createTestDatabase(kind);
    try {
      const cases: Array<[bigint, bigint]> = [
        [99_000_000n, 99_250_000n],
        [10_001n, 10_002n],
        [10_001n, 10_000n],
        [2n ** 200n, 2n ** 200n + 2n ** 198n],
        [0n, 7n],
      ];
      for (const [quoted, committed] of cases) {
        const [row] = await database.query<{ bps: string }>(
          "select coalesce(order_price_improvement_bps($1::numeric, $2::numeric), 0)::text as bps",
          [quoted.toString(), committed.toString()],
        );
        expect(Number(row!.bps)).toBe(priceImprovement(quoted, committed).bps);
      }
    } finally {
      await database.close();
    }
  });
});

// The ranks of a stored round's answers: the auction's rule (amount, then latency), equal answers in the order given.
import { describe, expect, it } from "vitest";
import { answerRanks, type RankedAnswer } from "../../src/auctions/ranking.ts";

const answer = (
  id: number,
  outcome: RankedAnswer["outcome"],
  amountOut: string | null,
  latencyMs: number,
) => ({
  id: BigInt(id),
  outcome,
  amountOut,
  latencyMs,
});

describe("answerRanks", () => {
  it("ranks quoted answers by amount (as uint256, not as text), then latency, then the order given", () => {
    const ranks = answerRanks([
      answer(1, "quoted", "99", 5),
      answer(2, "declined", null, 1),
      answer(3, "quoted", "100", 30),
      answer(4, "quoted", "100", 20),
      answer(5, "rejected", null, 0),
      answer(6, "quoted", "100", 20),
      answer(
        7,
        "quoted",
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        900,
      ),
    ]);
    expect([...ranks.entries()]).toEqual([
      [7n, 1],
      [4n, 2],
      [6n, 3],
      [3n, 4],
      [1n, 5],
    ]);
  });

  it("ranks nothing in a round without a quote", () => {
    expect(answerRanks([answer(1, "declined", null, 3), answer(2, "rejected", null, 1)]).size).toBe(0);
  });
});

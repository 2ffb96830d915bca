// The rank of each quoted answer of a stored round, by the auction's own rule (rounds/auction.ts byBestQuote): the
// higher amountOut first, equal amounts to the faster answer. Answers equal in both keep the order they were given
// in, as the auction's stable sort does (stored answer ids follow that order), so a /quote round's ranks are exactly
// the positions of its entries in the answer the client got.
import { byBestQuote } from "../rounds/auction.ts";

export interface RankedAnswer {
  id: bigint;
  outcome: "quoted" | "declined" | "rejected";
  amountOut: string | null;
  latencyMs: number;
}

/** 1 for the best quoted answer, 2 for the next…; declined and rejected answers have no rank. */
export function answerRanks(answers: readonly RankedAnswer[]): Map<bigint, number> {
  const quoted = answers
    .filter((answer) => answer.outcome === "quoted" && answer.amountOut !== null)
    .map((answer) => ({ id: answer.id, amountOut: BigInt(answer.amountOut!), latencyMs: answer.latencyMs }));
  quoted.sort((a, b) => byBestQuote(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return new Map(quoted.map((answer, index) => [answer.id, index + 1]));
}

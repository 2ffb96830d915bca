// The hand-written check of a solver's answer against the schema it replaces on the auction's path: for every kind
// of answer, the same acceptance, the same answer (addresses lowercased, unknown keys dropped) and the same first
// failure (`field: message`, as the schema's first issue).
import { describe, expect, it } from "vitest";
import { checkSolverAnswer } from "../../src/solvers/answer-check.ts";
import { SolverQuoteResponseSchema } from "../../src/solvers/protocol.ts";

const valid = {
  chainId: 31337,
  amountIn: "1000",
  amountOut: "990",
  filler: `0x${"Ab".repeat(20)}`,
  requestId: "r-1",
  swapper: `0x${"0".repeat(39)}5`,
  tokenIn: `0x${"C".repeat(40)}`,
  tokenOut: `0x${"d".repeat(40)}`,
  quoteId: "q-1",
};

const MAX_UINT256 = ((1n << 256n) - 1n).toString();

const cases: Array<[string, unknown]> = [
  ["a valid answer, mixed-case addresses", valid],
  ["a valid answer with keys the schema does not know", { ...valid, extra: 1, note: "x" }],
  ["amounts at uint256's bounds and leading zeros", { ...valid, amountIn: "0000", amountOut: MAX_UINT256 }],
  ["an array", []],
  ["null", null],
  ["a number", 5],
  ["a string", "quote"],
  ["true", true],
  ["an empty object", {}],
  ["chainId as a string", { ...valid, chainId: "31337" }],
  ["chainId null", { ...valid, chainId: null }],
  ["chainId 0", { ...valid, chainId: 0 }],
  ["chainId negative", { ...valid, chainId: -3 }],
  ["chainId fractional", { ...valid, chainId: 1.5 }],
  ["chainId negative and fractional", { ...valid, chainId: -1.5 }],
  ["chainId above 2^53 - 1", { ...valid, chainId: 2 ** 53 }],
  ["chainId at 2^53 - 1", { ...valid, chainId: Number.MAX_SAFE_INTEGER }],
  ["amountIn as a number", { ...valid, amountIn: 1000 }],
  ["amountIn negative", { ...valid, amountIn: "-1" }],
  ["amountIn empty", { ...valid, amountIn: "" }],
  ["amountIn in hex", { ...valid, amountIn: "0x10" }],
  ["amountIn fractional", { ...valid, amountIn: "1.5" }],
  ["amountOut above uint256", { ...valid, amountOut: (1n << 256n).toString() }],
  ["amountOut with 79 digits", { ...valid, amountOut: "1".repeat(79) }],
  ["amountOut missing", { ...valid, amountOut: undefined }],
  ["filler short", { ...valid, filler: "0x12" }],
  ["filler without 0x", { ...valid, filler: "ab".repeat(20) }],
  ["filler with a non-hex character", { ...valid, filler: `0x${"g".repeat(40)}` }],
  ["filler an array", { ...valid, filler: [valid.filler] }],
  ["requestId a number", { ...valid, requestId: 7 }],
  ["requestId an object", { ...valid, requestId: {} }],
  ["swapper missing", { ...valid, swapper: undefined }],
  ["tokenIn a boolean", { ...valid, tokenIn: false }],
  ["tokenOut with 41 hex characters", { ...valid, tokenOut: `0x${"d".repeat(41)}` }],
  ["quoteId null", { ...valid, quoteId: null }],
  [
    "several fields wrong: the first in schema order is named",
    { ...valid, tokenOut: "x", amountIn: "x", quoteId: 1 },
  ],
];

describe("checkSolverAnswer", () => {
  it.each(cases)("judges %s as the schema does", (_label, body) => {
    const schema = SolverQuoteResponseSchema.safeParse(body);
    const checked = checkSolverAnswer(body);
    if (schema.success) {
      expect(checked).toEqual({ ok: true, answer: schema.data });
    } else {
      const issue = schema.error.issues[0]!;
      expect(checked).toEqual({ ok: false, detail: `${issue.path.join(".")}: ${issue.message}` });
    }
  });

  it("accepts the valid cases and refuses the others (the table covers both)", () => {
    const accepted = cases.filter(([, body]) => checkSolverAnswer(body).ok).map(([label]) => label);
    expect(accepted).toEqual([
      "a valid answer, mixed-case addresses",
      "a valid answer with keys the schema does not know",
      "amounts at uint256's bounds and leading zeros",
      "chainId at 2^53 - 1",
    ]);
    const answer = checkSolverAnswer(valid);
    expect(answer.ok && answer.answer.filler).toBe(`0x${"ab".repeat(20)}`);
  });
});

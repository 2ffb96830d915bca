// Asks one solver for a quote. Every way a solver can fail is an outcome with a reason, never an exception:
// the auction records it and goes on with the others.
import { performance } from "node:perf_hooks";
import type { Address } from "viem";
import { checkSolverAnswer } from "./answer-check.ts";
import type { SolverDeadline } from "./deadline.ts";
import type { Solver } from "./directory.ts";
import { SolverAnswerTooLargeError, type SolverHttpAnswer, SolverHttpClient } from "./http-client.ts";
import type { SolverQuoteRequest, SolverQuoteResponse } from "./protocol.ts";

/**
 * Why an answer counted as no quote: the one list the auction results, the scorecards (in this order) and the fade
 * breaker use.
 */
export const SOLVER_REJECTIONS = [
  "timeout",
  "http_status",
  "invalid_body",
  "echo_mismatch",
  "wrong_filler",
  "zero_amount",
  "network",
] as const;
export type SolverRejection = (typeof SOLVER_REJECTIONS)[number];

export type SolverOutcome =
  | { kind: "quoted"; amountOut: bigint; filler: Address; latencyMs: number }
  | { kind: "declined"; latencyMs: number }
  | { kind: "rejected"; reason: SolverRejection; detail: string; latencyMs: number };

/** The transport every auction uses unless told otherwise: one keep-alive agent per solver for the process. */
export const solverHttp = new SolverHttpClient();

/** POSTs `{endpoint}/quote` (keeping any base path) and judges the answer against the request. */
export async function requestSolverQuote(
  solver: Solver,
  request: SolverQuoteRequest,
  deadline: SolverDeadline,
  http: SolverHttpClient = solverHttp,
): Promise<SolverOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 1000) / 1000;
  let response: SolverHttpAnswer;
  try {
    response = await http.post(solver, JSON.stringify(request), deadline);
  } catch (error) {
    if (deadline.closed)
      return {
        kind: "rejected",
        reason: "timeout",
        detail: "no answer before the auction closed",
        latencyMs: elapsed(),
      };
    if (error instanceof SolverAnswerTooLargeError)
      return { kind: "rejected", reason: "invalid_body", detail: error.message, latencyMs: elapsed() };
    return {
      kind: "rejected",
      reason: "network",
      detail: String((error as Error).message ?? error),
      latencyMs: elapsed(),
    };
  }
  const latencyMs = elapsed();
  if (response.status === 204) return { kind: "declined", latencyMs };
  if (response.status < 200 || response.status >= 300) {
    return { kind: "rejected", reason: "http_status", detail: `HTTP ${response.status}`, latencyMs };
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return { kind: "rejected", reason: "invalid_body", detail: "not JSON", latencyMs };
  }
  const checked = checkSolverAnswer(body);
  if (!checked.ok) return { kind: "rejected", reason: "invalid_body", detail: checked.detail, latencyMs };
  const answer = checked.answer;
  const mismatch = echoMismatch(request, answer);
  if (mismatch)
    return {
      kind: "rejected",
      reason: "echo_mismatch",
      detail: `${mismatch} differs from the request`,
      latencyMs,
    };
  if (answer.filler !== solver.filler) {
    return {
      kind: "rejected",
      reason: "wrong_filler",
      detail: `filler ${answer.filler} is not ${solver.filler}`,
      latencyMs,
    };
  }
  const amountOut = BigInt(answer.amountOut);
  if (amountOut === 0n)
    return { kind: "rejected", reason: "zero_amount", detail: "amountOut is 0", latencyMs };
  return { kind: "quoted", amountOut, filler: answer.filler, latencyMs };
}

/**
 * The first echoed field that differs (addresses are already lowercased by the check; ids compared case-insensitively).
 * An echo is almost always the very text sent: that is compared first, before any BigInt or lowercased copy is made.
 */
function echoMismatch(request: SolverQuoteRequest, answer: SolverQuoteResponse): string | undefined {
  if (answer.chainId !== request.tokenInChainId) return "chainId";
  if (answer.amountIn !== request.amount && BigInt(answer.amountIn) !== BigInt(request.amount))
    return "amountIn";
  if (!sameId(answer.requestId, request.requestId)) return "requestId";
  if (!sameId(answer.quoteId, request.quoteId)) return "quoteId";
  if (answer.swapper !== request.swapper) return "swapper";
  if (answer.tokenIn !== request.tokenIn) return "tokenIn";
  if (answer.tokenOut !== request.tokenOut) return "tokenOut";
  return undefined;
}

function sameId(echoed: string, sent: string): boolean {
  return echoed === sent || echoed.toLowerCase() === sent.toLowerCase();
}

// What `sluice solver check` can find wrong with a solver, each with what to do about it. A problem would cost the
// solver its quotes or its fills at the venue (the command exits non-zero); a warning would not, yet.
export const PROBLEM_FIXES = {
  unreachable: "Start the solver, and check the endpoint: the venue POSTs {endpoint}/quote.",
  http_status:
    "Answer 200 with a quote, or 204 to decline; a 401 means the secret was refused (use the one the venue gave you).",
  invalid_body:
    "Answer 200 with JSON {chainId, amountIn, amountOut, filler, requestId, swapper, tokenIn, tokenOut, quoteId} " +
    "(amounts as decimal strings, addresses as 0x hex), or 204 with no body to decline.",
  echo_mismatch:
    "Echo chainId (= tokenInChainId), amountIn (= amount), requestId, quoteId, swapper, tokenIn and tokenOut exactly " +
    "as the request sent them.",
  wrong_filler: "Name your own Executor as `filler` in every answer: the one the venue registered for you.",
  zero_amount: "Quote a positive amountOut, or answer 204 to decline.",
  amount_above_legs:
    "Quote at most what the legs offered can pay: per adapter, min(maxAssets, amountIn × maxRate / 1e18 in the " +
    "output token's decimals); more cannot be filled, and the order would fade.",
  timeout: "Answer within the venue's solverTimeoutMs, network included: an answer after it is no answer.",
  network: "Keep the endpoint up and the connection open until the answer is sent.",
  no_quotes: "Quote the venue's tokens with the legs it offers: an auction without your quote cannot be won.",
  unknown_filler:
    "Give the venue operator your endpoint and Executor to register (on the devnet: sluice devnet add-solver).",
  executor_missing:
    "Deploy your Executor on the venue's chain (on the devnet: sluice devnet add-solver does it).",
  executor_reactor: "Use an Executor deployed for the venue's Reactor: fills through any other one revert.",
  not_authorized:
    "Ask the adapters' market maker to name your Executor a filler (setFiller(executor, true)) on each adapter; " +
    "until then the venue offers you no legs.",
  not_caller: "Call Executor.fill from one of its callers: its owner adds one with setCallers.",
  // Warnings.
  secret_not_checked:
    "Refuse a request whose x-rfq-shared-secret is not yours (401): anyone who finds the endpoint can ask it.",
  slow: "Answer faster: the network between the venue and you adds to the latency measured here.",
  partly_authorized:
    "Ask the market maker to authorize your Executor on the other adapters too: more legs, more quotes.",
  caller_without_gas: "Fund the filling account: a fill needs gas.",
  declines: "Quote every token you can fill: a declined request is an auction you cannot win.",
} as const;

export type CheckFindingCode = keyof typeof PROBLEM_FIXES;

export interface CheckFinding {
  code: CheckFindingCode;
  severity: "problem" | "warning";
  /** What was seen, e.g. "3 of 10 answers: quoteId differs from the request". */
  message: string;
  /** What to do. */
  fix: string;
}

export function finding(
  code: CheckFindingCode,
  severity: CheckFinding["severity"],
  message: string,
): CheckFinding {
  return { code, severity, message, fix: PROBLEM_FIXES[code] };
}

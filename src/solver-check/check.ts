// `sluice solver check`: the venue's side of the solver protocol played against one solver's endpoint. It sends the
// sample quote requests (samples.ts) one at a time with the solver's secret, judges every answer exactly as an
// auction does (src/solvers/client.ts: shape, echoed fields, filler, amount) plus whether the amount fits the legs
// offered, times each against the venue's solver timeout, tries one request with a wrong secret, and checks on the
// venue's chain that the solver's Executor fills on the venue's Reactor, is authorized on the adapters and is called
// by the given filling account. Every finding says what to do (problems.ts).
import { randomBytes } from "node:crypto";
import { type Address, isAddressEqual, zeroAddress } from "viem";
import { executorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import type { PublicDeployment } from "../deployment/public.ts";
import { isAuthorizedOn, isUsable } from "../inventory/adapter-state.ts";
import { checkSolverAnswer } from "../solvers/answer-check.ts";
import {
  requestSolverQuote,
  SOLVER_REJECTIONS,
  type SolverOutcome,
  type SolverRejection,
} from "../solvers/client.ts";
import { SolverDeadline } from "../solvers/deadline.ts";
import type { Solver } from "../solvers/directory.ts";
import { SolverHttpClient } from "../solvers/http-client.ts";
import { type CheckFinding, finding } from "./problems.ts";
import { legsPayAtMost, readVenueInventory, type SamplePair, sampleRequest } from "./samples.ts";

export interface SolverCheckOptions {
  /** The solver's base URL: requests go to `{endpoint}/quote`. */
  endpoint: string;
  secret: string;
  venue: PublicDeployment;
  /** The venue's chain. */
  client: ChainPublicClient;
  /** The Executor the solver's answers must name; by default the one its first answer names. */
  filler?: Address;
  /** The account that calls `Executor.fill`, when given: checked to be one of its callers. */
  caller?: Address;
  /** Sample requests per token pair (default 10). */
  requestsPerPair?: number;
}

export interface Latency {
  p50: number;
  p99: number;
}

export interface PairResult {
  tokenIn: string;
  tokenOut: string;
  requests: number;
  quoted: number;
  declined: number;
  rejected: Partial<Record<SolverRejection | "amount_above_legs", number>>;
  /** Of the answers (not of timeouts or network failures), in ms; null without one. */
  latency: Latency | null;
  /** The legs were those the venue offers this solver (its Executor is authorized on them). */
  offeredByVenue: boolean;
}

export interface SolverCheckReport {
  endpoint: string;
  venue: { name: string; chainId: number };
  timeoutMs: number;
  /** The Executor checked, and where it came from. */
  filler: { address: Address; source: "option" | "answer"; solverId: string | null } | null;
  pairs: PairResult[];
  latency: Latency | null;
  findings: CheckFinding[];
  problems: number;
}

/** The venue offers nothing to ask about (no usable adapter for any pair): nothing can be checked. */
export class NothingToCheckError extends Error {
  override name = "NothingToCheckError";
}

export async function checkSolver(options: SolverCheckOptions): Promise<SolverCheckReport> {
  const { venue, client } = options;
  const timeoutMs = venue.solverTimeoutMs;
  const perPair = options.requestsPerPair ?? 10;
  const swapper = `0x${randomBytes(20).toString("hex")}` as Address;
  const http = new SolverHttpClient();
  try {
    const firstLook = await readVenueInventory(venue, client, options.filler);
    if (firstLook.pairs.length === 0)
      throw new NothingToCheckError(
        `the venue ${venue.name} has no usable adapter for any of its token pairs right now: nothing to ask about`,
      );
    const discovered = options.filler
      ? undefined
      : await fillerOfFirstAnswer(options, firstLook.pairs, swapper, http, timeoutMs);
    const filler = options.filler ?? discovered;
    // With the filler known, the legs are those the venue would offer it.
    const inventory = discovered ? await readVenueInventory(venue, client, discovered) : firstLook;

    const solver: Solver = {
      id: "checked",
      name: "checked",
      endpoint: options.endpoint,
      // Without a filler (no answer named one) any quote is judged against the zero address: wrong_filler names it.
      filler: filler ?? zeroAddress,
      internal: false,
      enabled: true,
      sharedSecret: options.secret,
    };
    const findings: CheckFinding[] = [];
    const tally = new Tally();
    const pairs: PairResult[] = [];
    for (const pair of inventory.pairs) {
      const result = newPairResult(pair);
      const latencies: number[] = [];
      for (let index = 0; index < perPair; index++) {
        const request = sampleRequest(venue, pair, swapper, index);
        const outcome = await requestSolverQuote(solver, request, SolverDeadline.after(timeoutMs), http);
        result.requests++;
        if (answered(outcome)) latencies.push(outcome.latencyMs);
        const judged = judgeAmount(outcome, legsPayAtMost(request, pair.tokenIn.decimals));
        tally.add(judged, `${pair.tokenIn.symbol} → ${pair.tokenOut.symbol}`);
        if (judged.kind === "quoted") result.quoted++;
        else if (judged.kind === "declined") result.declined++;
        else result.rejected[judged.reason] = (result.rejected[judged.reason] ?? 0) + 1;
      }
      result.latency = percentiles(latencies);
      tally.latencies.push(...latencies);
      pairs.push(result);
    }

    findings.push(...tally.findings(timeoutMs));
    const probe = await secretProbe(options, inventory.pairs[0]!, swapper, http, timeoutMs);
    if (probe) findings.push(probe);
    let solverId: string | null = null;
    if (filler) {
      const onChain = await chainFindings(options, filler, inventory.snapshots.values());
      findings.push(...onChain.findings);
      solverId = onChain.solverId;
    }
    const latency = percentiles(tally.latencies);
    return {
      endpoint: options.endpoint,
      venue: { name: venue.name, chainId: venue.chainId },
      timeoutMs,
      filler: filler ? { address: filler, source: options.filler ? "option" : "answer", solverId } : null,
      pairs,
      latency,
      findings,
      problems: findings.filter((entry) => entry.severity === "problem").length,
    };
  } finally {
    http.close();
  }
}

type JudgedOutcome =
  | SolverOutcome
  | { kind: "rejected"; reason: "amount_above_legs"; detail: string; latencyMs: number };

/** A quote above what its legs can pay is a rejection here (an auction takes it, and its order fades). */
function judgeAmount(outcome: SolverOutcome, atMost: bigint): JudgedOutcome {
  if (outcome.kind !== "quoted" || outcome.amountOut <= atMost) return outcome;
  return {
    kind: "rejected",
    reason: "amount_above_legs",
    detail: `amountOut ${outcome.amountOut} is above the ${atMost} the legs offered can pay`,
    latencyMs: outcome.latencyMs,
  };
}

/** An answer came back (whatever it said): its latency counts. */
function answered(outcome: SolverOutcome): boolean {
  return outcome.kind !== "rejected" || (outcome.reason !== "timeout" && outcome.reason !== "network");
}

function newPairResult(pair: SamplePair): PairResult {
  return {
    tokenIn: pair.tokenIn.symbol,
    tokenOut: pair.tokenOut.symbol,
    requests: 0,
    quoted: 0,
    declined: 0,
    rejected: {},
    latency: null,
    offeredByVenue: pair.offeredByVenue,
  };
}

/** Nearest-rank percentiles, rounded to 0.1 ms. */
export function percentiles(values: readonly number[]): Latency | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  const round = (value: number) => Math.round(value * 10) / 10;
  return { p50: round(at(0.5)), p99: round(at(0.99)) };
}

const REJECTION_CODES = [...SOLVER_REJECTIONS, "amount_above_legs"] as const;

/** Every outcome, counted by kind and reason, with the first detail of each reason. */
class Tally {
  total = 0;
  quoted = 0;
  declined = 0;
  readonly latencies: number[] = [];
  readonly #rejected = new Map<string, { count: number; detail: string; where: string }>();
  readonly #declinedPairs = new Map<string, number>();
  readonly #requestsPerPair = new Map<string, number>();

  add(outcome: JudgedOutcome, where: string): void {
    this.total++;
    this.#requestsPerPair.set(where, (this.#requestsPerPair.get(where) ?? 0) + 1);
    if (outcome.kind === "quoted") this.quoted++;
    else if (outcome.kind === "declined") {
      this.declined++;
      this.#declinedPairs.set(where, (this.#declinedPairs.get(where) ?? 0) + 1);
    } else {
      const seen = this.#rejected.get(outcome.reason);
      if (seen) seen.count++;
      else this.#rejected.set(outcome.reason, { count: 1, detail: outcome.detail, where });
    }
  }

  findings(timeoutMs: number): CheckFinding[] {
    const found: CheckFinding[] = [];
    for (const code of REJECTION_CODES) {
      const seen = this.#rejected.get(code);
      if (!seen) continue;
      const detail =
        code === "timeout"
          ? `no answer within the venue's ${timeoutMs} ms`
          : code === "network"
            ? `${seen.detail}`
            : seen.detail;
      const message = `${seen.count} of ${this.total} requests: ${detail} (first: ${seen.where})`;
      found.push(
        finding(
          code === "network" && /ECONNREFUSED/.test(seen.detail) ? "unreachable" : code,
          "problem",
          message,
        ),
      );
    }
    if (this.quoted === 0 && this.declined === this.total)
      found.push(finding("no_quotes", "problem", `declined all ${this.total} sample requests (204)`));
    else if (this.quoted > 0) {
      const allDeclined = [...this.#declinedPairs].filter(
        ([where, count]) => count === this.#requestsPerPair.get(where),
      );
      if (allDeclined.length > 0)
        found.push(
          finding(
            "declines",
            "warning",
            `declined every request of ${allDeclined.map(([where]) => where).join(", ")}`,
          ),
        );
    }
    const latency = percentiles(this.latencies);
    if (latency && !this.#rejected.has("timeout") && latency.p99 > timeoutMs / 2)
      found.push(
        finding(
          "slow",
          "warning",
          `p99 latency ${latency.p99} ms is more than half the venue's ${timeoutMs} ms timeout`,
        ),
      );
    return found;
  }
}

/** Asks until an answer parses as a quote, and takes the filler it names. */
async function fillerOfFirstAnswer(
  options: SolverCheckOptions,
  pairs: readonly SamplePair[],
  swapper: Address,
  http: SolverHttpClient,
  timeoutMs: number,
): Promise<Address | undefined> {
  for (const pair of pairs) {
    const request = sampleRequest(options.venue, pair, swapper, 1);
    const answer = await http
      .post(
        { endpoint: options.endpoint, sharedSecret: options.secret },
        JSON.stringify(request),
        SolverDeadline.after(timeoutMs),
      )
      .catch(() => undefined);
    if (answer?.status !== 200) continue;
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      continue;
    }
    const checked = checkSolverAnswer(json);
    if (checked.ok) return checked.answer.filler;
  }
  return undefined;
}

/** One request with a wrong secret: a solver that answers it checks nobody's. */
async function secretProbe(
  options: SolverCheckOptions,
  pair: SamplePair,
  swapper: Address,
  http: SolverHttpClient,
  timeoutMs: number,
): Promise<CheckFinding | undefined> {
  const wrong = `wrong-${randomBytes(16).toString("hex")}`;
  const request = sampleRequest(options.venue, pair, swapper, 1);
  const answer = await http
    .post(
      { endpoint: options.endpoint, sharedSecret: wrong },
      JSON.stringify(request),
      SolverDeadline.after(timeoutMs),
    )
    .catch(() => undefined);
  if (!answer || (answer.status !== 200 && answer.status !== 204)) return undefined;
  return finding(
    "secret_not_checked",
    "warning",
    `answered ${answer.status} to a request with a wrong x-rfq-shared-secret`,
  );
}

/** The Executor on the venue's chain: listed by the venue, deployed for its Reactor, authorized, callable. */
async function chainFindings(
  options: SolverCheckOptions,
  filler: Address,
  snapshots: Iterable<{ adapters: readonly Parameters<typeof isAuthorizedOn>[0][] }>,
): Promise<{ findings: CheckFinding[]; solverId: string | null }> {
  const { venue, client } = options;
  const found: CheckFinding[] = [];
  const listed = venue.solvers.find((solver) => isAddressEqual(solver.filler, filler));
  if (!listed)
    found.push(
      finding("unknown_filler", "problem", `no solver of the venue ${venue.name} has Executor ${filler}`),
    );
  const code = await client.getCode({ address: filler });
  if (!code || code === "0x") {
    found.push(finding("executor_missing", "problem", `no contract at ${filler} on chain ${venue.chainId}`));
    return { findings: found, solverId: listed?.id ?? null };
  }
  const reactor = await client
    .readContract({ address: filler, abi: executorAbi, functionName: "reactor" })
    .catch(() => undefined);
  if (!reactor || !isAddressEqual(reactor, venue.reactor))
    found.push(
      finding(
        "executor_reactor",
        "problem",
        reactor
          ? `Executor ${filler} fills on Reactor ${reactor}, not the venue's ${venue.reactor}`
          : `${filler} is not an Executor (it has no reactor())`,
      ),
    );
  // Every adapter that is usable for some pair, and those of them that authorize the Executor.
  const usable = new Set<string>();
  const authorized = new Set<string>();
  for (const snapshot of snapshots) {
    for (const state of snapshot.adapters) {
      if (!venue.outputTokens.some((token) => isUsable(state, token.address))) continue;
      usable.add(state.adapter);
      if (isAuthorizedOn(state, filler)) authorized.add(state.adapter);
    }
  }
  if (usable.size > 0 && authorized.size === 0)
    found.push(
      finding(
        "not_authorized",
        "problem",
        `Executor ${filler} is a filler of none of the ${usable.size} adapters`,
      ),
    );
  else if (authorized.size < usable.size)
    found.push(
      finding(
        "partly_authorized",
        "warning",
        `Executor ${filler} is a filler of ${authorized.size} of the ${usable.size} adapters`,
      ),
    );
  if (options.caller) {
    const isCaller = await client
      .readContract({ address: filler, abi: executorAbi, functionName: "isCaller", args: [options.caller] })
      .catch(() => false);
    if (!isCaller)
      found.push(finding("not_caller", "problem", `${options.caller} is not a caller of Executor ${filler}`));
    const balance = await client.getBalance({ address: options.caller });
    if (balance === 0n) found.push(finding("caller_without_gas", "warning", `${options.caller} has no ETH`));
  }
  return { findings: found, solverId: listed?.id ?? null };
}

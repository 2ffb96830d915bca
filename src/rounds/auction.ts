// One auction round: ask every participant in parallel, close when all have answered or at the timeout,
// rank the quotes best output first with ties to the faster answer.
import type { Leg } from "../inventory/offer.ts";
import { requestSolverQuote, type SolverOutcome } from "../solvers/client.ts";
import type { ClientId, SolverConcurrency } from "../solvers/concurrency.ts";
import { SolverDeadline } from "../solvers/deadline.ts";
import type { Solver } from "../solvers/directory.ts";
import type { SolverQuoteRequest } from "../solvers/protocol.ts";

export interface AuctionParticipant {
  solver: Solver;
  /** The quote id this solver's answer will carry. */
  quoteId: string;
  legs: Leg[];
}

export interface AuctionResult {
  participant: AuctionParticipant;
  request: SolverQuoteRequest;
  outcome: SolverOutcome;
}

export type WinningResult = AuctionResult & { outcome: Extract<SolverOutcome, { kind: "quoted" }> };

export interface AuctionOptions {
  participants: readonly AuctionParticipant[];
  buildRequest: (participant: AuctionParticipant) => SolverQuoteRequest;
  timeoutMs: number;
  /** Overrides the transport (tests); defaults to HTTP. */
  ask?: typeof requestSolverQuote;
  /**
   * Each solver's in-flight cap on this replica and the client the round is for: a solver at its cap, or whose
   * share for this client is taken, is left out of the round (not asked).
   */
  concurrency?: { slots: SolverConcurrency; client: ClientId };
}

export interface AuctionRound {
  /** The answers of the participants asked. */
  results: AuctionResult[];
  /** The participants left out by their concurrency cap: not asked, so without an answer. */
  busy: AuctionParticipant[];
}

/** Asks every participant with a free slot; the others are left out of the round and listed as busy. */
export async function runAuction(options: AuctionOptions): Promise<AuctionRound> {
  const ask = options.ask ?? requestSolverQuote;
  const { concurrency } = options;
  const busy: AuctionParticipant[] = [];
  const asked = options.participants.flatMap((participant) => {
    if (!concurrency) return [{ participant, release: () => {} }];
    const slot = concurrency.slots.tryAcquire(participant.solver, concurrency.client);
    if ("busy" in slot) {
      busy.push(participant);
      return [];
    }
    return [{ participant, release: slot.release }];
  });
  // One deadline for the round: its timer ends every request still open.
  const deadline = new SolverDeadline();
  const timer = setTimeout(() => deadline.close(), options.timeoutMs);
  try {
    const results = await Promise.all(
      asked.map(async ({ participant, release }) => {
        try {
          const request = options.buildRequest(participant);
          const outcome = await ask(participant.solver, request, deadline);
          return { participant, request, outcome };
        } finally {
          release();
        }
      }),
    );
    return { results, busy };
  } finally {
    clearTimeout(timer);
  }
}

/** Quoted results, best amountOut first; equal amounts go to the faster answer. */
export function rankQuotes(results: readonly AuctionResult[]): WinningResult[] {
  return results
    .filter((result): result is WinningResult => result.outcome.kind === "quoted")
    .sort((a, b) => byBestQuote(a.outcome, b.outcome));
}

/**
 * The auction's rule for two quotes: the higher amountOut first, equal amounts to the faster answer (0 when equal in
 * both: a stable sort keeps the order they were given in). The public auction results rank stored answers by it too.
 */
export function byBestQuote(
  a: { amountOut: bigint; latencyMs: number },
  b: { amountOut: bigint; latencyMs: number },
): number {
  if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1;
  return a.latencyMs - b.latencyMs;
}

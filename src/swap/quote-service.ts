// POST /quote: validate the terms, run an auction round (src/rounds) among the solvers eligible now and hand back one
// signable entry per quoting solver, best output first; the round is stored right after the answer.
import { randomUUID } from "node:crypto";
import { reactorDomain } from "../chain/eip712.ts";
import type { Request } from "../chain/order.ts";
import { unixSeconds } from "../clock.ts";
import type { Market } from "../market/market.ts";
import type { WinningResult } from "../rounds/auction.ts";
import { SolversBusyError } from "../rounds/errors.ts";
import { type Round, runRound } from "../rounds/round.ts";
import type { ClientId } from "../solvers/concurrency.ts";
import { NoQuotesError } from "./errors.ts";
import { type OutputWithAmount, splitOutputs } from "./outputs.ts";
import type { QuoteEntryRow, QuoteRepository, QuoteRequestRow } from "./repository.ts";
import type { QuoteRoundWriter } from "./round-writer.ts";
import type { QuoteRequest, QuoteResponse } from "./schemas.ts";
import { type QuoteTerms, resolveQuoteTerms } from "./terms.ts";
import { signatureDataFor } from "./typed-data.ts";

/** One entry of the answer: a quoting solver's answer with the Request it offers to sign. */
interface Entry {
  result: WinningResult;
  rank: number;
  outputs: OutputWithAmount[];
  nonce: bigint;
}

export class QuoteService {
  constructor(
    private readonly context: Market,
    private readonly repository: QuoteRepository,
    private readonly rounds: QuoteRoundWriter,
  ) {}

  /** `client`: who asks (the HTTP layer's identity of the caller), for its fair share of each solver's slots. */
  async quote(
    input: QuoteRequest,
    requestId: string,
    publicBaseUrl: string,
    client: ClientId,
  ): Promise<QuoteResponse> {
    const terms = resolveQuoteTerms(this.context.deployment, input);
    const request = this.#requestRow(input, terms, requestId);
    await this.#assertAboveMinimum(terms, request);
    const round = await runRound(this.context, {
      kind: "quote",
      requestId,
      terms: { ...terms, outputCount: terms.outputs.length },
      solverIds: input.solverIds,
      quoteIdFor: () => randomUUID(),
      client,
    });
    const stored = { ...request, inventoryBlock: round.inventoryBlock };
    await this.#assertQuoted(round, stored);
    const deadline = unixSeconds(round.at) + this.context.deployment.quoteLifetimeSeconds;
    const entries = round.ranked.map((result, rank) => ({
      result,
      rank,
      outputs: splitOutputs(result.outcome.amountOut, terms.outputs),
      nonce: this.context.newNonce(),
    }));
    // Stored after the answer (see QuoteRoundWriter): POST /order of these quotes waits for it.
    this.rounds.write({
      request: stored,
      answers: round.answers,
      entries: entries.map((entry) => this.#entryRow(entry, terms, requestId, deadline, round.at)),
    });
    return this.#answer(entries, terms, requestId, deadline, publicBaseUrl);
  }

  #requestRow(input: QuoteRequest, terms: QuoteTerms, requestId: string): QuoteRequestRow {
    return {
      requestId,
      swapper: terms.swapper,
      tokenIn: terms.tokenIn.address,
      tokenOut: terms.tokenOut.address,
      amount: terms.amount.toString(),
      outputs: terms.outputs,
      solverIds: input.solverIds ?? null,
      routingPreference: input.routingPreference,
      permitAmount: input.permitAmount ?? null,
      createdAt: this.context.clock.now(),
    };
  }

  /** An amount below the input token's minimum asks no solver: the request is stored, and refused. */
  async #assertAboveMinimum(terms: QuoteTerms, request: QuoteRequestRow): Promise<void> {
    const minimumAmount = BigInt(terms.tokenIn.minQuoteAmount);
    if (terms.amount >= minimumAmount) return;
    await this.repository.saveQuoteRound(request, [], []);
    throw new NoQuotesError("amount below the input token's minimum", {
      tokenIn: terms.tokenIn.address,
      symbol: terms.tokenIn.symbol,
      decimals: terms.tokenIn.decimals,
      minimumAmount,
    });
  }

  /** A round without a quote is stored at once (no entry can become an order) and refused. */
  async #assertQuoted(round: Round, request: QuoteRequestRow): Promise<void> {
    if (round.eligible === 0) {
      await this.repository.saveQuoteRound(request, [], []);
      throw new NoQuotesError("no eligible solver");
    }
    if (round.ranked.length > 0) return;
    await this.repository.saveQuoteRound(request, round.answers, []);
    // Solvers left out by their cap did not decline: the round is worth retrying, not "no quotes".
    if (round.busy.length > 0) {
      throw new SolversBusyError({
        solversAsked: round.results.length,
        solversBusy: round.busy.length,
        solverTimeoutMs: this.context.deployment.solverTimeoutMs,
      });
    }
    throw new NoQuotesError("no solver returned a non-zero quote");
  }

  #entryRow(entry: Entry, terms: QuoteTerms, requestId: string, deadline: number, at: Date): QuoteEntryRow {
    const { participant, outcome } = entry.result;
    return {
      quoteId: participant.quoteId,
      requestId,
      solverId: participant.solver.id,
      filler: participant.solver.filler,
      rank: entry.rank,
      tokenIn: terms.tokenIn.address,
      amountIn: terms.amount.toString(),
      tokenOut: terms.tokenOut.address,
      amountOut: outcome.amountOut.toString(),
      outputs: entry.outputs.map((o) => ({ ...o, amount: o.amount.toString() })),
      deadline,
      nonce: entry.nonce.toString(),
      protocol: this.context.deployment.protocolSigner,
      createdAt: at,
    };
  }

  #answer(
    entries: readonly Entry[],
    terms: QuoteTerms,
    requestId: string,
    deadline: number,
    publicBaseUrl: string,
  ): QuoteResponse {
    const { context } = this;
    const domain = reactorDomain(context.deployment.chainId, context.deployment.reactor);
    return {
      requestId,
      routing: "Priority" as const,
      quotes: entries.map(({ result, outputs, nonce }) => {
        const solver = result.participant.solver;
        const logoUrl = context.solvers.logoUrl(solver, publicBaseUrl);
        return {
          solver: {
            id: solver.id,
            name: solver.name,
            filler: solver.filler,
            metadata: logoUrl ? { logoUrl } : {},
          },
          quote: {
            quoteId: result.participant.quoteId,
            aggregatedOutputs: [
              { token: terms.tokenOut.address, amount: result.outcome.amountOut.toString() },
            ],
            orderInfo: {
              tokenIn: terms.tokenIn.address,
              amountIn: terms.amount.toString(),
              outputs: outputs.map((o) => ({
                token: o.token,
                recipient: o.recipient,
                amount: o.amount.toString(),
                ...(o.portionBps !== undefined ? { portionBps: o.portionBps } : {}),
              })),
              deadline,
              nonce: nonce.toString(),
            },
          },
          signatureData: signatureDataFor(domain, this.#signedRequest(terms, outputs, deadline, nonce)),
        };
      }),
    };
  }

  #signedRequest(
    terms: QuoteTerms,
    outputs: readonly OutputWithAmount[],
    deadline: number,
    nonce: bigint,
  ): Request {
    return {
      tokenIn: terms.tokenIn.address,
      amountIn: terms.amount,
      outputs: outputs.map((output) => ({
        token: output.token,
        amount: output.amount,
        recipient: output.recipient,
      })),
      deadline: BigInt(deadline),
      nonce,
      protocol: this.context.deployment.protocolSigner,
    };
  }
}

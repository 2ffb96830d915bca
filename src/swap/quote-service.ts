// POST /quote: validate the terms, offer each eligible solver its legs at the current block, run the auction and
// hand back one signable entry per quoting solver, best output first; the round is stored right after the answer.
import { randomUUID } from "node:crypto";
import { reactorDomain } from "../chain/eip712.ts";
import type { Request } from "../chain/order.ts";
import { unixSeconds } from "../clock.ts";
import { offeredLegs } from "../inventory/offer.ts";
import type { Market, RoundAnswer } from "../market/market.ts";
import type { SolverOutcome } from "../solvers/client.ts";
import type { ClientId } from "../solvers/concurrency.ts";
import type { SolverQuoteRequest } from "../solvers/protocol.ts";
import { type AuctionParticipant, type AuctionResult, rankQuotes, runAuction } from "./auction.ts";
import { NoQuotesError, SolversBusyError } from "./errors.ts";
import { type OutputWithAmount, splitOutputs } from "./outputs.ts";
import type { QuoteRepository, SolverAnswerRow } from "./repository.ts";
import type { QuoteRoundWriter } from "./round-writer.ts";
import type { QuoteRequest, QuoteResponse } from "./schemas.ts";
import { type QuoteTerms, resolveQuoteTerms } from "./terms.ts";
import { signatureDataFor } from "./typed-data.ts";

/** The legs each eligible solver is offered now; solvers without a leg are left out. */
export async function eligibleParticipants(
  context: Market,
  terms: Pick<QuoteTerms, "tokenIn" | "tokenOut">,
  solverIds: readonly string[] | undefined,
  quoteIdFor: (solverId: string) => string,
) {
  const snapshot = await context.inventory.snapshot(terms.tokenIn);
  const discounts = await context.discounts.offers(snapshot);
  const participants: AuctionParticipant[] = [];
  for (const solver of context.solvers.select(solverIds)) {
    const legs = offeredLegs(solver, snapshot, terms.tokenOut.address, discounts);
    if (legs.length > 0) participants.push({ solver, quoteId: quoteIdFor(solver.id), legs });
  }
  return { snapshot, participants };
}

export function solverRequest(
  context: Market,
  terms: QuoteTerms,
  requestId: string,
  participant: AuctionParticipant,
): SolverQuoteRequest {
  const chainId = context.deployment.chainId;
  return {
    requestId,
    quoteId: participant.quoteId,
    tokenInChainId: chainId,
    tokenOutChainId: chainId,
    swapper: terms.swapper,
    tokenIn: terms.tokenIn.address,
    tokenOut: terms.tokenOut.address,
    amount: terms.amount.toString(),
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: terms.outputs.length,
    adapters: participant.legs.map((leg) => ({
      adapter: leg.adapter,
      asset: leg.asset,
      assetDecimals: leg.assetDecimals,
      maxAssets: leg.maxAssets.toString(),
      maxRate: leg.maxRate.toString(),
      ...(leg.discountId ? { discountId: leg.discountId } : {}),
    })),
  };
}

export function answerRows(
  results: readonly AuctionResult[],
  requestId: string,
  round: "quote" | "order",
  now: Date,
): SolverAnswerRow[] {
  return results.map(({ participant, outcome }) => ({
    requestId,
    round,
    solverId: participant.solver.id,
    quoteId: participant.quoteId,
    outcome: outcome.kind,
    reason: outcome.kind === "rejected" ? outcome.reason : null,
    detail: outcome.kind === "rejected" ? outcome.detail : null,
    latencyMs: outcome.latencyMs,
    amountOut: outcome.kind === "quoted" ? outcome.amountOut.toString() : null,
    legs: participant.legs.length,
    // Kept for the public auction results (src/auctions): what the solver was offered, as it was sent.
    offeredLegs: participant.legs.map((leg) => ({
      adapter: leg.adapter,
      maxAssets: leg.maxAssets.toString(),
      maxRate: leg.maxRate.toString(),
    })),
    createdAt: now,
  }));
}

/** The round's answers as the fade breaker counts them. */
export function roundAnswers(results: readonly AuctionResult[]): RoundAnswer[] {
  return results.map(({ participant, outcome }) => ({
    solverId: participant.solver.id,
    outcome: outcome.kind,
    ...(outcome.kind === "rejected" ? { reason: outcome.reason } : {}),
  }));
}

export function buildRequest(
  context: Market,
  terms: Pick<QuoteTerms, "tokenIn" | "amount">,
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
    protocol: context.deployment.protocolSigner,
  };
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
    const { context } = this;
    const terms = resolveQuoteTerms(context.deployment, input);
    const startedAt = context.clock.now();
    const requestRow = {
      requestId,
      swapper: terms.swapper,
      tokenIn: terms.tokenIn.address,
      tokenOut: terms.tokenOut.address,
      amount: terms.amount.toString(),
      outputs: terms.outputs,
      solverIds: input.solverIds ?? null,
      routingPreference: input.routingPreference,
      permitAmount: input.permitAmount ?? null,
      createdAt: startedAt,
    };

    if (terms.amount < BigInt(terms.tokenIn.minQuoteAmount)) {
      await this.repository.saveQuoteRound(requestRow, [], []);
      throw new NoQuotesError("amount below the input token's minimum", {
        tokenIn: terms.tokenIn.address,
        symbol: terms.tokenIn.symbol,
        decimals: terms.tokenIn.decimals,
        minimumAmount: BigInt(terms.tokenIn.minQuoteAmount),
      });
    }

    const { snapshot, participants } = await eligibleParticipants(context, terms, input.solverIds, () =>
      randomUUID(),
    );
    const inventoryBlock = snapshot.blockNumber;
    if (participants.length === 0) {
      await this.repository.saveQuoteRound({ ...requestRow, inventoryBlock }, [], []);
      throw new NoQuotesError("no eligible solver");
    }

    const { results, busy } = await runAuction({
      participants,
      timeoutMs: context.deployment.solverTimeoutMs,
      buildRequest: (participant) => solverRequest(context, terms, requestId, participant),
      ...(context.concurrency ? { concurrency: { slots: context.concurrency, client } } : {}),
    });
    const ranked = rankQuotes(results);
    const now = context.clock.now();
    context.rounds?.observed({ swapper: terms.swapper, answers: roundAnswers(results), at: now });
    const answers = answerRows(results, requestId, "quote", now);
    if (ranked.length === 0) {
      await this.repository.saveQuoteRound({ ...requestRow, inventoryBlock }, answers, []);
      // Solvers left out by their cap did not decline: the round is worth retrying, not "no quotes".
      if (busy.length > 0) {
        throw new SolversBusyError({
          solversAsked: results.length,
          solversBusy: busy.length,
          solverTimeoutMs: context.deployment.solverTimeoutMs,
        });
      }
      throw new NoQuotesError("no solver returned a non-zero quote");
    }

    const deadline = unixSeconds(now) + context.deployment.quoteLifetimeSeconds;
    const domain = reactorDomain(context.deployment.chainId, context.deployment.reactor);
    const entries = ranked.map((result, rank) => {
      const outcome = result.outcome as Extract<SolverOutcome, { kind: "quoted" }>;
      const outputs = splitOutputs(outcome.amountOut, terms.outputs);
      const nonce = context.newNonce();
      return { result, rank, outputs, nonce, amountOut: outcome.amountOut };
    });

    // Stored after the answer (see QuoteRoundWriter): POST /order of these quotes waits for it.
    this.rounds.write({
      request: { ...requestRow, inventoryBlock },
      answers,
      entries: entries.map(({ result, rank, outputs, nonce, amountOut }) => ({
        quoteId: result.participant.quoteId,
        requestId,
        solverId: result.participant.solver.id,
        filler: result.participant.solver.filler,
        rank,
        tokenIn: terms.tokenIn.address,
        amountIn: terms.amount.toString(),
        tokenOut: terms.tokenOut.address,
        amountOut: amountOut.toString(),
        outputs: outputs.map((o) => ({ ...o, amount: o.amount.toString() })),
        deadline,
        nonce: nonce.toString(),
        protocol: context.deployment.protocolSigner,
        createdAt: now,
      })),
    });

    return {
      requestId,
      routing: "Priority" as const,
      quotes: entries.map(({ result, outputs, nonce, amountOut }) => {
        const solver = result.participant.solver;
        const logoUrl = context.solvers.logoUrl(solver, publicBaseUrl);
        const request = buildRequest(context, terms, outputs, deadline, nonce);
        return {
          solver: {
            id: solver.id,
            name: solver.name,
            filler: solver.filler,
            metadata: logoUrl ? { logoUrl } : {},
          },
          quote: {
            quoteId: result.participant.quoteId,
            aggregatedOutputs: [{ token: terms.tokenOut.address, amount: amountOut.toString() }],
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
          signatureData: signatureDataFor(domain, request),
        };
      }),
    };
  }
}

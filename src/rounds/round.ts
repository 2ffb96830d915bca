// One auction round, as POST /quote runs it and as the POST /order hard round runs it again: the solvers eligible now
// (each offered its legs at the current block), one request per solver, their answers within the timeout, ranked,
// the answers as the rows to store, and the fade breaker told of the round. What the ranked answers become (quote
// entries, or an order's winner) and when the rows are stored are the caller's.
import type { Address } from "viem";
import type { InputTokenConfig, TokenConfig } from "../deployment/schema.ts";
import { offeredLegs } from "../inventory/offer.ts";
import type { Market } from "../market/market.ts";
import type { ClientId } from "../solvers/concurrency.ts";
import type { SolverQuoteRequest } from "../solvers/protocol.ts";
import {
  type AuctionParticipant,
  type AuctionResult,
  rankQuotes,
  runAuction,
  type WinningResult,
} from "./auction.ts";
import type { SolverAnswerRow } from "./store.ts";

/** What the solvers are asked to quote. */
export interface RoundTerms {
  tokenIn: InputTokenConfig;
  tokenOut: TokenConfig;
  amount: bigint;
  swapper: Address;
  /** How many outputs the swapper asked for (the solvers are told). */
  outputCount: number;
}

export interface RoundCall {
  /** The /quote round or an /order hard round (kept on every answer row). */
  kind: "quote" | "order";
  /** The request id of the call running the round: the solvers see it, the rows keep it. */
  requestId: string;
  terms: RoundTerms;
  /** The client's solver restriction, if it gave one. */
  solverIds: readonly string[] | undefined;
  /** The quote id the solver's answer will carry. */
  quoteIdFor: (solverId: string) => string;
  /** Who asks (the HTTP layer's identity of the caller), for its fair share of each solver's slots. */
  client: ClientId;
}

export interface Round {
  /** The block whose inventory the solvers were offered. */
  inventoryBlock: bigint;
  /** The solvers eligible (offered at least one leg); none asked when there are none. */
  eligible: number;
  /** The answers of the solvers asked. */
  results: AuctionResult[];
  /** The eligible solvers left out by their concurrency cap: not asked, so without an answer. */
  busy: AuctionParticipant[];
  /** The quoted answers, best first. */
  ranked: WinningResult[];
  /** Every answer as its row is stored. */
  answers: SolverAnswerRow[];
  /** When the round closed. */
  at: Date;
}

export async function runRound(market: Market, call: RoundCall): Promise<Round> {
  const { snapshot, participants } = await eligibleParticipants(market, call);
  const { results, busy } =
    participants.length === 0
      ? { results: [], busy: [] }
      : await runAuction({
          participants,
          timeoutMs: market.deployment.solverTimeoutMs,
          buildRequest: (participant) => solverRequest(market, call, participant),
          ...(market.concurrency ? { concurrency: { slots: market.concurrency, client: call.client } } : {}),
        });
  const at = market.clock.now();
  if (results.length > 0)
    market.rounds?.observed({ swapper: call.terms.swapper, answers: roundAnswers(results), at });
  return {
    inventoryBlock: snapshot.blockNumber,
    eligible: participants.length,
    results,
    busy,
    ranked: rankQuotes(results),
    answers: answerRows(results, call, at),
    at,
  };
}

/** The legs each eligible solver is offered now; solvers without a leg are left out. */
async function eligibleParticipants(market: Market, call: RoundCall) {
  const { tokenIn, tokenOut } = call.terms;
  const snapshot = await market.inventory.snapshot(tokenIn);
  const discounts = await market.discounts.offers(snapshot);
  const participants: AuctionParticipant[] = [];
  for (const solver of market.solvers.select(call.solverIds)) {
    const legs = offeredLegs(solver, snapshot, tokenOut.address, discounts);
    if (legs.length > 0) participants.push({ solver, quoteId: call.quoteIdFor(solver.id), legs });
  }
  return { snapshot, participants };
}

function solverRequest(market: Market, call: RoundCall, participant: AuctionParticipant): SolverQuoteRequest {
  const chainId = market.deployment.chainId;
  const { terms } = call;
  return {
    requestId: call.requestId,
    quoteId: participant.quoteId,
    tokenInChainId: chainId,
    tokenOutChainId: chainId,
    swapper: terms.swapper,
    tokenIn: terms.tokenIn.address,
    tokenOut: terms.tokenOut.address,
    amount: terms.amount.toString(),
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: terms.outputCount,
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

function answerRows(results: readonly AuctionResult[], call: RoundCall, at: Date): SolverAnswerRow[] {
  return results.map(({ participant, request, outcome }) => ({
    requestId: call.requestId,
    round: call.kind,
    solverId: participant.solver.id,
    quoteId: participant.quoteId,
    outcome: outcome.kind,
    reason: outcome.kind === "rejected" ? outcome.reason : null,
    detail: outcome.kind === "rejected" ? outcome.detail : null,
    latencyMs: outcome.latencyMs,
    amountOut: outcome.kind === "quoted" ? outcome.amountOut.toString() : null,
    legs: participant.legs.length,
    // Kept for the public auction results (src/auctions): what the solver was offered, as it was sent.
    offeredLegs: request.adapters.map((leg) => ({
      adapter: leg.adapter,
      maxAssets: leg.maxAssets,
      maxRate: leg.maxRate,
    })),
    createdAt: at,
  }));
}

/** The round's answers as the fade breaker counts them. */
function roundAnswers(results: readonly AuctionResult[]) {
  return results.map(({ participant, outcome }) => ({
    solverId: participant.solver.id,
    outcome: outcome.kind,
    ...(outcome.kind === "rejected" ? { reason: outcome.reason } : {}),
  }));
}

// Answers one solver quote request: keeps the legs the reference solver can fill, checks them against its own chain
// read, prices them (pricing.ts) and echoes the request.
//
// Direct legs count on the solver's own adapters. Discount legs (those with a `discountId`) count only for an
// internal solver, which has the internal discount API: each must be in the API's live list (cached briefly), for
// the request's input token and on the adapter the leg names, and is priced at the lower of the rate it was sent and
// the rate the solver computes from its own read. When the API cannot be reached or a discount is not in its list
// the leg is skipped (and logged), never guessed. An external solver skips every discount leg without asking.
import { type Address, getAddress, type Hex, isAddressEqual } from "viem";
import type { Logger } from "../logger.ts";
import type { SolverQuoteRequest, SolverQuoteResponse } from "../solvers/protocol.ts";
import type { SolverChainView } from "./chain-view.ts";
import type { InternalDiscountsClient, ListedDiscount } from "./discounts-client.ts";
import { type LegAllocation, type PricedLeg, priceQuote } from "./pricing.ts";

type SolverLeg = SolverQuoteRequest["adapters"][number];

export type QuoteDeclineReason =
  | "other_chain"
  | "same_token"
  | "no_legs"
  | "unknown_token"
  | "insufficient_capacity"
  | "zero_output";

export type QuoteOutcome =
  | { kind: "quote"; response: SolverQuoteResponse; legs: LegAllocation[] }
  | { kind: "decline"; reason: QuoteDeclineReason };

export interface QuoterOptions {
  chainId: number;
  executor: Address;
  marginBps: number;
  chain: SolverChainView;
  /** Only for an internal solver: where discount legs are checked. */
  discounts?: InternalDiscountsClient;
  logger: Logger;
}

export class ReferenceQuoter {
  constructor(private readonly options: QuoterOptions) {}

  async quote(request: SolverQuoteRequest): Promise<QuoteOutcome> {
    const { chainId, chain } = this.options;
    if (request.tokenInChainId !== chainId || request.tokenOutChainId !== chainId) {
      return { kind: "decline", reason: "other_chain" };
    }
    const tokenIn = getAddress(request.tokenIn);
    const tokenOut = getAddress(request.tokenOut);
    if (isAddressEqual(tokenIn, tokenOut)) return { kind: "decline", reason: "same_token" };

    const paysTokenOut = request.adapters.filter((leg) => isAddressEqual(leg.asset, tokenOut));
    const directCandidates = paysTokenOut.filter(
      (leg) => leg.discountId === undefined && chain.isOwnAdapter(leg.adapter),
    );
    const discountCandidates = this.options.discounts
      ? paysTokenOut.filter((leg) => leg.discountId !== undefined)
      : [];
    if (directCandidates.length === 0 && discountCandidates.length === 0) {
      return { kind: "decline", reason: "no_legs" };
    }

    const decimals = await chain.pairDecimals(tokenIn, tokenOut);
    if (!decimals) return { kind: "decline", reason: "unknown_token" };
    // A leg that states other decimals than the asset has is priced on a wrong scale: not trusted at all.
    const onScale = (leg: SolverLeg) => leg.assetDecimals === decimals.tokenOut;
    const listed = await this.#listedDiscounts(request, tokenIn, discountCandidates.filter(onScale));
    const sent: PricedLeg[] = [
      ...directCandidates.filter(onScale).map((leg) => sentLeg(leg)),
      ...listed.map(({ leg, discount }) => sentLeg(leg, discount)),
    ];
    if (sent.length === 0) return { kind: "decline", reason: "no_legs" };

    const onChain = await chain.legs({
      tokenIn,
      tokenOut,
      decimals,
      adapters: sent.filter((leg) => !leg.discount).map((leg) => leg.adapter),
      discounts: listed.map(({ discount }) => discount),
    });
    const decision = priceQuote({
      amountIn: BigInt(request.amount),
      sent,
      onChain,
      decimals,
      marginBps: this.options.marginBps,
    });
    if (decision.kind === "decline") return decision;
    return {
      kind: "quote",
      legs: decision.allocation.legs,
      response: {
        chainId: request.tokenInChainId,
        amountIn: request.amount,
        amountOut: decision.amountOut.toString(),
        filler: this.options.executor.toLowerCase() as Address,
        requestId: request.requestId,
        swapper: request.swapper,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        quoteId: request.quoteId,
      },
    };
  }

  /** The discount legs that are in the internal API's live list, with the listed discount each one uses. */
  async #listedDiscounts(
    request: SolverQuoteRequest,
    tokenIn: Address,
    candidates: readonly SolverLeg[],
  ): Promise<Array<{ leg: SolverLeg; discount: ListedDiscount }>> {
    const { discounts, logger } = this.options;
    if (!discounts || candidates.length === 0) return [];
    const ids = { requestId: request.requestId, quoteId: request.quoteId };
    let live: ListedDiscount[];
    try {
      live = await discounts.list();
    } catch (error) {
      logger.warn(
        { ...ids, err: error, discountIds: candidates.map((leg) => leg.discountId) },
        "discount legs skipped: the internal discount API cannot be read",
      );
      return [];
    }
    const listed: Array<{ leg: SolverLeg; discount: ListedDiscount }> = [];
    for (const leg of candidates) {
      const discountId = leg.discountId!.toLowerCase() as Hex;
      const discount = live.find(
        (entry) =>
          entry.discountId === discountId &&
          isAddressEqual(entry.adapter, leg.adapter) &&
          isAddressEqual(entry.tokenToRedeem, tokenIn),
      );
      if (discount) listed.push({ leg, discount });
      else
        logger.info(
          { ...ids, discountId, adapter: leg.adapter },
          "discount leg skipped: not a live discount",
        );
    }
    return listed;
  }
}

/** A leg as Sluice sent it; a discount leg carries the listed discount's terms. */
function sentLeg(leg: SolverLeg, discount?: ListedDiscount): PricedLeg {
  return {
    adapter: getAddress(leg.adapter),
    rate: BigInt(leg.maxRate),
    capacity: BigInt(leg.maxAssets),
    ...(discount ? { discount: { discountId: discount.discountId, ppm: discount.ppm } } : {}),
  };
}

// Answers one solver quote request: keeps the legs the reference solver can fill (its own adapters, direct legs
// paying tokenOut), checks them against its own chain read, prices them (pricing.ts) and echoes the request.
//
// Discount legs (those with a `discountId`, offered to internal solvers) are skipped: filling one needs the
// discount's signatures from Sluice's internal discount API, which the reference solver does not use yet. A
// request with only discount legs is declined.
import { type Address, getAddress, isAddressEqual } from "viem";
import type { SolverQuoteRequest, SolverQuoteResponse } from "../protocol.ts";
import type { SolverChainView } from "./chain-view.ts";
import { type LegAllocation, type PricedLeg, priceQuote } from "./pricing.ts";

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

    const candidates = request.adapters.filter(
      (leg) =>
        leg.discountId === undefined &&
        isAddressEqual(leg.asset, tokenOut) &&
        chain.isOwnAdapter(leg.adapter),
    );
    if (candidates.length === 0) return { kind: "decline", reason: "no_legs" };

    const decimals = await chain.pairDecimals(tokenIn, tokenOut);
    if (!decimals) return { kind: "decline", reason: "unknown_token" };
    // A leg that states other decimals than the asset has is priced on a wrong scale: not trusted at all.
    const sent: PricedLeg[] = candidates
      .filter((leg) => leg.assetDecimals === decimals.tokenOut)
      .map((leg) => ({
        adapter: getAddress(leg.adapter),
        rate: BigInt(leg.maxRate),
        capacity: BigInt(leg.maxAssets),
      }));
    if (sent.length === 0) return { kind: "decline", reason: "no_legs" };

    const onChain = await chain.directLegs({
      tokenIn,
      tokenOut,
      decimals,
      adapters: sent.map((leg) => leg.adapter),
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
}

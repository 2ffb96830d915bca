// POST /quote: validate the terms, run an auction round (src/rounds) among the solvers eligible now and hand back one
// signable entry per quoting solver, best output first; the round is stored right after the answer.
import type { Address } from "viem";
import { reactorDomain } from "../chain/eip712.ts";
import { unixSeconds } from "../clock.ts";
import type { Market } from "../market/market.ts";
import type { WinningResult } from "../rounds/auction.ts";
import { SolversBusyError } from "../rounds/errors.ts";
import { type Round, runRound } from "../rounds/round.ts";
import { uuidV7 } from "../shared/uuid-v7.ts";
import type { ClientId } from "../solvers/concurrency.ts";
import { NoQuotesError } from "./errors.ts";
import { type OutputWithAmount, splitOutputs } from "./outputs.ts";
import type { QuoteEntryRow, QuoteRepository, QuoteRequestRow } from "./repository.ts";
import type { QuoteRoundWriter } from "./round-writer.ts";
import type { QuoteRequest, QuoteResponse } from "./schemas.ts";
import { type QuoteTerms, resolveQuoteTerms } from "./terms.ts";
import { type SignatureDataParts, signatureDataOf, signatureDataParts } from "./typed-data.ts";

/** One output of an entry, its amount as the text every use of it (row, answer, typed data) takes. */
interface OutputText {
  token: Address;
  recipient: Address;
  amount: string;
  portionBps?: number;
}

/** One entry of the answer: a quoting solver's answer with the Request it offers to sign, each value text once. */
interface Entry {
  result: WinningResult;
  rank: number;
  amountOut: string;
  outputs: OutputText[];
  nonce: string;
}

/** What every entry of one /quote shares, as text. */
interface QuoteText {
  requestId: string;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: string;
  deadline: number;
}

export class QuoteService {
  /** The domain and types of every entry's typed data: one deployment's, built once. */
  readonly #signatureParts: SignatureDataParts;

  constructor(
    private readonly context: Market,
    private readonly repository: QuoteRepository,
    private readonly rounds: QuoteRoundWriter,
  ) {
    this.#signatureParts = signatureDataParts(
      reactorDomain(context.deployment.chainId, context.deployment.reactor),
    );
  }

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
      quoteIdFor: () => uuidV7(),
      client,
    });
    const stored = { ...request, inventoryBlock: round.inventoryBlock };
    await this.#assertQuoted(round, stored);
    const text: QuoteText = {
      requestId,
      tokenIn: terms.tokenIn.address,
      tokenOut: terms.tokenOut.address,
      amountIn: request.amount,
      deadline: unixSeconds(round.at) + this.context.deployment.quoteLifetimeSeconds,
    };
    const entries = round.ranked.map((result, rank) => ({
      result,
      rank,
      amountOut: result.outcome.amountOut.toString(),
      outputs: splitOutputs(result.outcome.amountOut, terms.outputs).map(outputText),
      nonce: this.context.newNonce().toString(),
    }));
    // Stored after the answer (see QuoteRoundWriter): POST /order of these quotes waits for it.
    this.rounds.write({
      request: stored,
      answers: round.answers,
      entries: entries.map((entry) => this.#entryRow(entry, text, round.at)),
    });
    return this.#answer(entries, text, publicBaseUrl);
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

  #entryRow(entry: Entry, text: QuoteText, at: Date): QuoteEntryRow {
    const { participant } = entry.result;
    return {
      quoteId: participant.quoteId,
      requestId: text.requestId,
      solverId: participant.solver.id,
      filler: participant.solver.filler,
      rank: entry.rank,
      tokenIn: text.tokenIn,
      amountIn: text.amountIn,
      tokenOut: text.tokenOut,
      amountOut: entry.amountOut,
      outputs: entry.outputs,
      deadline: text.deadline,
      nonce: entry.nonce,
      protocol: this.context.deployment.protocolSigner,
      createdAt: at,
    };
  }

  #answer(entries: readonly Entry[], text: QuoteText, publicBaseUrl: string): QuoteResponse {
    const { context } = this;
    const protocol = context.deployment.protocolSigner;
    const deadline = String(text.deadline);
    return {
      requestId: text.requestId,
      routing: "Priority" as const,
      quotes: entries.map(({ result, amountOut, outputs, nonce }) => {
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
            aggregatedOutputs: [{ token: text.tokenOut, amount: amountOut }],
            orderInfo: {
              tokenIn: text.tokenIn,
              amountIn: text.amountIn,
              outputs,
              deadline: text.deadline,
              nonce,
            },
          },
          signatureData: signatureDataOf(this.#signatureParts, {
            tokenIn: text.tokenIn,
            amountIn: text.amountIn,
            outputs: outputs.map((o) => ({ token: o.token, amount: o.amount, recipient: o.recipient })),
            deadline,
            nonce,
            protocol,
          }),
        };
      }),
    };
  }
}

/** An output with its amount as text; the fee portion kept only where the request gave one. */
function outputText(output: OutputWithAmount): OutputText {
  return {
    token: output.token,
    recipient: output.recipient,
    amount: output.amount.toString(),
    ...(output.portionBps !== undefined ? { portionBps: output.portionBps } : {}),
  };
}

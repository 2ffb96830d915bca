// POST /order: re-check the signed terms against the stored quote, verify the swapper's signature, re-run the
// auction among the solvers eligible now, commit the outputs, counter-sign the Order and store it — once per quote.
import type { Address, Hex } from "viem";
import { encodeOrder, hashOrder, type Order, type Request, signOrder } from "../chain/order.ts";
import { unixSeconds } from "../clock.ts";
import { type Market, reactorRef } from "../market/market.ts";
import { SolversBusyError } from "../rounds/errors.ts";
import { type RoundTerms, runRound } from "../rounds/round.ts";
import type { RoundStore } from "../rounds/store.ts";
import { uuidV7 } from "../shared/uuid-v7.ts";
import type { ClientId } from "../solvers/concurrency.ts";
import { commitOutputs, OutputCommitmentError, type OutputWithAmount } from "../swap/outputs.ts";
import type { QuoteLookup, StoredQuote } from "../swap/quote-lookup.ts";
import { quoteDifferences } from "../swap/quote-match.ts";
import type { OrderRequest } from "../swap/schemas.ts";
import {
  InvalidSwapperSignatureError,
  QuoteExpiredError,
  QuoteMismatchError,
  QuoteNotFoundError,
  QuoteUnavailableError,
} from "./errors.ts";
import { totalOf } from "./price-improvement.ts";
import type { OrderRepository, OrderRow } from "./repository.ts";

export interface OrderResult {
  orderId: string;
  orderStatus: OrderRow["status"];
}

/** One post creating a quote's order in this process: identical posts share its outcome, others wait for it. */
interface Creation {
  /** The post's body as sent (identical posts have identical keys). */
  key: string;
  outcome: Promise<OrderResult>;
}

export class OrderService {
  /** The creation running for each quote id in this process. */
  readonly #creations = new Map<string, Creation>();

  constructor(
    private readonly context: Market,
    private readonly rounds: RoundStore,
    private readonly orders: OrderRepository,
    private readonly lookup: QuoteLookup,
  ) {}

  /**
   * `client`: who posts (the HTTP layer's identity of the caller), for its fair share of each solver's slots;
   * `integrator`: the API key's integrator that places the order (recorded on it), none for the anonymous tier.
   */
  async submit(
    input: OrderRequest,
    requestId: string,
    client: ClientId,
    integrator?: string,
  ): Promise<OrderResult> {
    const stored = await this.lookup.find(input.quote.quoteId, input.quote.orderInfo.deadline);
    if (!stored) throw new QuoteNotFoundError(input.quote.quoteId);
    const signature = input.signature as Hex;

    // A re-post of a quote that already has an order gets that order, with any encoding of the signature.
    const existing = await this.#existingOrder(stored, signature);
    if (existing) return this.#answerRepost(existing, requestId);

    // A re-post while this process creates the quote's order: an identical post gets the same outcome (no second
    // hard round: a burst of one post would otherwise take every slot of the solvers' caps); another one waits for
    // it, then answers the order if there is one now, or tries itself.
    const key = JSON.stringify(input);
    for (let running = this.#creations.get(stored.quote.quoteId); running; ) {
      if (running.key === key) return this.#answerRepost(await running.outcome, requestId);
      await running.outcome.catch(() => {});
      const order = await this.#existingOrder(stored, signature);
      if (order) return this.#answerRepost(order, requestId);
      running = this.#creations.get(stored.quote.quoteId);
    }
    const creation: Creation = {
      key,
      outcome: this.#createOrAnswerWinner(input, stored, signature, requestId, client, integrator),
    };
    this.#creations.set(stored.quote.quoteId, creation);
    try {
      return await creation.outcome;
    } finally {
      if (this.#creations.get(stored.quote.quoteId) === creation)
        this.#creations.delete(stored.quote.quoteId);
    }
  }

  async #createOrAnswerWinner(
    input: OrderRequest,
    stored: StoredQuote,
    signature: Hex,
    requestId: string,
    client: ClientId,
    integrator: string | undefined,
  ): Promise<OrderResult> {
    try {
      return await this.#create(input, stored, signature, requestId, client, integrator);
    } catch (error) {
      // A concurrent post of this quote (on another replica) may have created its order meanwhile (and a fill may
      // already have used the nonce): a re-post is answered with that order, never with an expired, unavailable or
      // busy quote.
      if (
        !(
          error instanceof QuoteExpiredError ||
          error instanceof QuoteUnavailableError ||
          error instanceof SolversBusyError
        )
      )
        throw error;
      const order = await this.#existingOrder(stored, signature);
      if (!order) throw error;
      return this.#answerRepost(order, requestId);
    }
  }

  /** The quote's order, if it has one and `signature` is valid for the quote's Request. */
  async #existingOrder(stored: StoredQuote, signature: Hex): Promise<OrderRow | undefined> {
    const order = await this.orders.findByQuoteId(stored.quote.quoteId);
    if (!order) return undefined;
    const check = await this.context.chain.checkSwapperSignature(
      stored.request.swapper as Address,
      signedRequest(stored),
      signature,
    );
    return check.valid ? order : undefined;
  }

  /** Answers a post that reached an existing order (or shared the creating post's outcome), recording the call. */
  async #answerRepost(order: OrderRow | OrderResult, requestId: string): Promise<OrderResult> {
    const result = "status" in order ? { orderId: order.orderId, orderStatus: order.status } : order;
    await this.orders.recordAttempt(result.orderId, requestId, this.context.clock.now());
    return { orderId: result.orderId, orderStatus: result.orderStatus };
  }

  async #create(
    input: OrderRequest,
    stored: StoredQuote,
    signature: Hex,
    requestId: string,
    client: ClientId,
    integrator: string | undefined,
  ): Promise<OrderResult> {
    const { context } = this;
    const swapper = stored.request.swapper as Address;
    const signed = signedRequest(stored);

    this.#assertNotExpired(stored);
    const differences = quoteDifferences(input.quote, stored.quote, swapper);
    if (differences.length > 0) throw new QuoteMismatchError(differences);
    const check = await context.chain.checkSwapperSignature(swapper, signed, signature);
    const signatureCheck = {
      requestId,
      quoteId: stored.quote.quoteId,
      check: "signature" as const,
      passed: check.valid,
      detail: check.valid ? check.by : check.fault,
      createdAt: context.clock.now(),
    };
    if (!check.valid) {
      // Kept for the trail; failing to keep it must not change the answer.
      await this.orders.recordChecks([signatureCheck]).catch((error: unknown) => {
        context.logger.warn({ err: error, requestId }, "could not record a refused signature for the trail");
      });
      throw new InvalidSwapperSignatureError(swapper, check.fault);
    }

    const winner = await this.#hardRound(stored, requestId, client);
    const signedOutputs = storedOutputs(stored);
    let committed: OutputWithAmount[];
    try {
      committed = commitOutputs(signedOutputs, winner.amountOut);
    } catch (error) {
      if (error instanceof OutputCommitmentError) {
        context.logger.error(
          { err: error, details: error.details, quoteId: stored.quote.quoteId },
          "BUG: output commitment failed",
        );
      }
      // A bug, not a failure of the request: it goes on as an unexpected error.
      throw error;
    }

    // The Order carries the signature in the form the Reactor verifies (an EOA's canonical 65 bytes).
    const order: Order = {
      request: signed,
      swapperSignature: check.signature,
      swapper,
      filler: winner.filler,
      outputs: committed.map((o) => ({ token: o.token, amount: o.amount, recipient: o.recipient })),
    };
    const ref = reactorRef(context.deployment);
    const protocolSignature = await signOrder(context.protocolSigner, ref, order);
    const coSignature = {
      requestId,
      quoteId: stored.quote.quoteId,
      check: "co-signature" as const,
      passed: true,
      detail: context.protocolSigner.address,
      createdAt: context.clock.now(),
    };

    // Last checks before the insert, outside its transaction so no RPC call holds a database connection.
    this.#assertNotExpired(stored);
    if (await context.chain.isNonceUsed(swapper, signed.nonce)) {
      throw new QuoteUnavailableError({ reason: "nonce_used" });
    }
    const now = context.clock.now();
    const { order: row, created } = await this.orders.createOnce(
      {
        orderId: uuidV7(),
        quoteId: stored.quote.quoteId,
        requestId,
        quoteRequestId: stored.quote.requestId,
        tokenOut: stored.quote.tokenOut,
        quotedAmountOut: stored.quote.amountOut,
        committedAmountOut: totalOf(order.outputs, stored.quote.tokenOut).toString(),
        orderHash: hashOrder(order),
        status: "open",
        swapper,
        filler: winner.filler,
        solverId: winner.solverId,
        integrator: integrator ?? null,
        tokenIn: signed.tokenIn,
        amountIn: signed.amountIn.toString(),
        nonce: signed.nonce.toString(),
        deadline: Number(signed.deadline),
        signedOutputs: stored.quote.outputs,
        outputs: committed.map((o) => ({ ...o, amount: o.amount.toString() })),
        swapperSignature: check.signature,
        protocolSignature,
        encodedOrder: encodeOrder(order),
        createdAt: now,
        updatedAt: now,
      },
      [signatureCheck, coSignature],
    );
    if (!created) await this.orders.recordAttempt(row.orderId, requestId, context.clock.now());
    return { orderId: row.orderId, orderStatus: row.status };
  }

  #assertNotExpired(stored: StoredQuote): void {
    if (stored.quote.deadline <= unixSeconds(this.context.clock.now())) {
      throw new QuoteExpiredError(stored.quote.deadline);
    }
  }

  /**
   * Asks the solvers eligible now; the best answer that meets the quoted total wins, ties to the faster one. Without
   * one, the quote is unavailable (409) only if every eligible solver was asked: one left out by its concurrency cap
   * might still honor it, so that round is busy (503, retry).
   */
  async #hardRound(stored: StoredQuote, requestId: string, client: ClientId) {
    const { context } = this;
    const round = await runRound(context, {
      kind: "order",
      requestId,
      terms: termsOf(context, stored),
      solverIds: stored.request.solverIds ?? undefined,
      quoteIdFor: () => stored.quote.quoteId,
      client,
    });
    const quoted = BigInt(stored.quote.amountOut);
    const best = round.ranked.find((result) => result.outcome.amountOut >= quoted);
    await this.rounds.saveHardRound(round.answers, best?.participant.solver.id);
    if (!best && round.busy.length > 0) {
      throw new SolversBusyError({
        solversAsked: round.results.length,
        solversBusy: round.busy.length,
        solverTimeoutMs: context.deployment.solverTimeoutMs,
      });
    }
    if (!best) throw new QuoteUnavailableError({ reason: "no_solver", solversAsked: round.results.length });
    return {
      solverId: best.participant.solver.id,
      filler: best.outcome.filler,
      amountOut: best.outcome.amountOut,
    };
  }
}

function storedOutputs(stored: StoredQuote): OutputWithAmount[] {
  return stored.quote.outputs.map((output) => ({
    token: output.token as Address,
    recipient: output.recipient as Address,
    amount: BigInt(output.amount),
    ...(output.portionBps !== undefined ? { portionBps: output.portionBps } : {}),
  }));
}

/** The Request the swapper signed, rebuilt from the stored entry. */
export function signedRequest(stored: StoredQuote): Request {
  return {
    tokenIn: stored.quote.tokenIn as Address,
    amountIn: BigInt(stored.quote.amountIn),
    outputs: stored.quote.outputs.map((o) => ({
      token: o.token as Address,
      amount: BigInt(o.amount),
      recipient: o.recipient as Address,
    })),
    deadline: BigInt(stored.quote.deadline),
    nonce: BigInt(stored.quote.nonce),
    protocol: stored.quote.protocol as Address,
  };
}

function termsOf(context: Market, stored: StoredQuote): RoundTerms {
  const tokenIn = context.deployment.inputTokens.find((t) => t.address === stored.quote.tokenIn);
  const tokenOut = context.deployment.outputTokens.find((t) => t.address === stored.quote.tokenOut);
  if (!tokenIn || !tokenOut) {
    throw new QuoteUnavailableError({ reason: "tokens_unsupported" });
  }
  return {
    tokenIn,
    tokenOut,
    amount: BigInt(stored.quote.amountIn),
    swapper: stored.request.swapper as Address,
    outputCount: stored.request.outputs.length,
  };
}

// `createSluiceClient`: the swap flow of the spec's client sequence (4.12) as functions — quote, check the approval,
// sign and submit the order, follow it until it settles — typed from Sluice's OpenAPI document.
import type { Address, Hex } from "viem";
import type {
  AuctionResult,
  CancelResponse,
  CheckApprovalRequest,
  CheckApprovalResponse,
  DevFaucetFundResponse,
  DevFaucetResponse,
  DevFundResponse,
  Order,
  OrderResponse,
  OrdersQuery,
  OrdersResponse,
  QuoteEntry,
  QuoteRequest,
  QuoteResponse,
  SolverScorecard,
  SolversResponse,
} from "./api-types.ts";
import { delay } from "./delay.ts";
import { OrderStreamUnavailableError, OrderWaitTimeoutError } from "./errors.ts";
import {
  type OrderStreamEvent,
  type OrderStreamFilter,
  type StreamOrdersOptions,
  streamOrders,
} from "./order-stream.ts";
import { type QuoteSigner, signQuote } from "./signing.ts";
import { createTransport, type TransportOptions } from "./transport.ts";

export type SluiceClientOptions = TransportOptions;

/** A quote request; `amount` in tokenIn base units (a bigint or a decimal string), `type` EXACT_INPUT by default. */
export type QuoteParams = Omit<QuoteRequest, "amount" | "type"> & {
  amount: bigint | string;
  type?: QuoteRequest["type"];
};

export type CheckApprovalParams = Omit<CheckApprovalRequest, "amount"> & { amount: bigint | string };

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WaitForOrderOptions extends CallOptions {
  /** Between two polls, once the stream could not be used (default 1000 ms: the devnet mines a block a second). */
  intervalMs?: number;
  /** Give up with `OrderWaitTimeoutError` after this long (default 120 000 ms), stream and polling together. */
  timeoutMs?: number;
  /** Each event the order stream delivers (snapshot, order, resync), as it arrives. */
  onEvent?: (event: OrderStreamEvent) => void;
  /** Each new look at the order, streamed or polled. */
  onUpdate?: (order: Order) => void;
  /** The stream could not be used (refused, not SSE, kept dropping): polling takes over from here. */
  onFallback?: (reason: OrderStreamUnavailableError) => void;
  /** Called with each poll's answer (undefined while the order is not listed yet). */
  onPoll?: (order: Order | undefined) => void;
}

export interface SluiceClient {
  /** POST /quote: every solver's quote, best output first. 404 `NO_QUOTES` when none. */
  quote(params: QuoteParams, options?: CallOptions): Promise<QuoteResponse>;
  /** POST /check_approval: the transactions (`cancel`, then `approval`) the wallet sends before ordering; null when none. */
  checkApproval(params: CheckApprovalParams, options?: CallOptions): Promise<CheckApprovalResponse>;
  /** Signs the entry's `signatureData` with `signer` (the quote's swapper) and POSTs /order with the entry's quote. */
  submitOrder(
    entry: Pick<QuoteEntry, "quote" | "signatureData">,
    signer: QuoteSigner,
    options?: CallOptions,
  ): Promise<OrderResponse & { signature: Hex }>;
  /**
   * GET /auctions/{requestId}: a round's results — a /quote answer's `requestId`, or an /order call's for its hard
   * round. Public from the quote's deadline + 10 s; before that SluiceApiError 409 `AUCTION_OPEN` with
   * `details.availableAt`, and 404 `AUCTION_NOT_FOUND` for an id no round was stored under.
   */
  auction(requestId: string, options?: CallOptions): Promise<AuctionResult>;
  /**
   * POST /cancel: the unsigned `Reactor.invalidateNonce` transaction that cancels an open (or insufficient-funds)
   * order, to be sent from `swapper` (`sendTransactionRequest` sends it with a viem wallet client). 404
   * `ORDER_NOT_FOUND`; 409 `ORDER_NOT_OPEN` once the order left `open` or its deadline passed by chain time.
   */
  cancelOrder(orderId: string, options?: CallOptions): Promise<CancelResponse>;
  /** GET /orders with its filters (`orderId`, `orderIds`, `swapper`, `orderStatus`…). */
  orders(query: OrdersQuery, options?: CallOptions): Promise<OrdersResponse>;
  /**
   * GET /orders/stream: the followed orders' events (snapshot, then each change), resuming with `Last-Event-ID`
   * after a drop; ends on `end` (every named order final); OrderStreamUnavailableError when it cannot be used.
   */
  streamOrders(
    filter: OrderStreamFilter,
    options?: StreamOrdersOptions,
  ): AsyncGenerator<OrderStreamEvent, void>;
  /**
   * Follows the order on GET /orders/stream until it leaves `open` (filled, cancelled, expired, error…) and returns
   * it; polls GET /orders?orderId= instead when the stream cannot be used (an older server, a proxy without SSE).
   */
  waitForOrder(orderId: string, options?: WaitForOrderOptions): Promise<Order>;
  /** GET /solvers: every configured solver with its cooldown and scorecard (at most 1 s stale). */
  solvers(options?: CallOptions): Promise<SolversResponse>;
  /** GET /solvers/{id}: one solver's; 404 `SOLVER_NOT_FOUND` for an id that is not configured. */
  solver(solverId: string, options?: CallOptions): Promise<SolverScorecard>;
  /** The devnet's helpers (403 `DEV_ONLY` on any other deployment). */
  dev: {
    /** GET /dev/faucet: the ERC-20s the faucet sends, with their addresses, symbols and decimals. */
    faucet(options?: CallOptions): Promise<DevFaucetResponse>;
    /** POST /dev/faucet: the whole bundle (ETH for gas and every listed token) to `walletAddress`, once mined. */
    fundFromFaucet(walletAddress: Address, options?: CallOptions): Promise<DevFaucetFundResponse>;
    /** POST /dev/fund: ETH and the deployment's input token to `walletAddress`, once mined. */
    fund(walletAddress: Address, options?: CallOptions): Promise<DevFundResponse>;
  };
}

export function createSluiceClient(options: SluiceClientOptions): SluiceClient {
  const transport = createTransport(options);

  /**
   * The stream part of waitForOrder: `settled` with the order once it leaves `open`, `timeout` at `giveUpAt`, or
   * `poll` when the stream cannot be used (or ended without a settled order), so polling carries on.
   */
  async function followOnStream(
    orderId: string,
    wait: WaitForOrderOptions,
    giveUpAt: number,
    seen: (order: Order) => void,
  ): Promise<{ kind: "settled"; order: Order } | { kind: "timeout" } | { kind: "poll" }> {
    const stop = new AbortController();
    const onAbort = () => stop.abort(wait.signal?.reason);
    wait.signal?.addEventListener("abort", onAbort, { once: true });
    if (wait.signal?.aborted) onAbort();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop.abort(new Error("waitForOrder timed out"));
      },
      Math.max(0, giveUpAt - Date.now()),
    );
    try {
      for await (const event of streamOrders(transport, { orderId }, { signal: stop.signal })) {
        wait.onEvent?.(event);
        if (event.type === "resync" || event.order.orderId !== orderId) continue;
        seen(event.order);
        wait.onUpdate?.(event.order);
        if (event.order.orderStatus !== "open") return { kind: "settled", order: event.order };
      }
      return { kind: "poll" };
    } catch (error) {
      if (wait.signal?.aborted) throw wait.signal.reason;
      if (timedOut) return { kind: "timeout" };
      if (!(error instanceof OrderStreamUnavailableError)) throw error;
      wait.onFallback?.(error);
      return { kind: "poll" };
    } finally {
      clearTimeout(timer);
      wait.signal?.removeEventListener("abort", onAbort);
      stop.abort();
    }
  }

  const orders: SluiceClient["orders"] = (query, call = {}) =>
    transport.get<OrdersResponse>("/orders", { query, signal: call.signal });

  return {
    quote: (params, call = {}) =>
      transport.post<QuoteResponse>(
        "/quote",
        { ...params, type: params.type ?? "EXACT_INPUT", amount: params.amount.toString() },
        call,
      ),

    checkApproval: (params, call = {}) =>
      transport.post<CheckApprovalResponse>(
        "/check_approval",
        { ...params, amount: params.amount.toString() },
        call,
      ),

    async submitOrder(entry, signer, call = {}) {
      const signature = await signQuote(signer, entry.signatureData);
      const body: { quote: QuoteEntry["quote"]; signature: Hex } = { quote: entry.quote, signature };
      const answer = await transport.post<OrderResponse>("/order", body, call);
      return { ...answer, signature };
    },

    auction: (requestId, call = {}) =>
      transport.get<AuctionResult>(`/auctions/${encodeURIComponent(requestId)}`, call),
    cancelOrder: (orderId, call = {}) => transport.post<CancelResponse>("/cancel", { orderId }, call),

    orders,

    solvers: (call = {}) => transport.get<SolversResponse>("/solvers", { signal: call.signal }),

    solver: (solverId, call = {}) =>
      transport.get<SolverScorecard>(`/solvers/${encodeURIComponent(solverId)}`, { signal: call.signal }),

    streamOrders: (filter, streamOptions = {}) => streamOrders(transport, filter, streamOptions),

    async waitForOrder(orderId, wait = {}) {
      const intervalMs = wait.intervalMs ?? 1000;
      const timeoutMs = wait.timeoutMs ?? 120_000;
      const giveUpAt = Date.now() + timeoutMs;
      let lastStatus: string | null = null;

      const streamed = await followOnStream(orderId, wait, giveUpAt, (order) => {
        lastStatus = order.orderStatus;
      });
      if (streamed.kind === "settled") return streamed.order;
      if (streamed.kind === "timeout") throw new OrderWaitTimeoutError(orderId, timeoutMs, lastStatus);

      for (;;) {
        const [order] = (await orders({ orderId }, wait)).orders;
        wait.onPoll?.(order);
        if (order) wait.onUpdate?.(order);
        if (order && order.orderStatus !== "open") return order;
        lastStatus = order?.orderStatus ?? null;
        if (Date.now() + intervalMs > giveUpAt)
          throw new OrderWaitTimeoutError(orderId, timeoutMs, lastStatus);
        await delay(intervalMs, wait.signal);
      }
    },

    dev: {
      faucet: (call = {}) => transport.get<DevFaucetResponse>("/dev/faucet", call),
      fundFromFaucet: (walletAddress, call = {}) =>
        transport.post<DevFaucetFundResponse>("/dev/faucet", { walletAddress }, call),
      fund: (walletAddress, call = {}) =>
        transport.post<DevFundResponse>("/dev/fund", { walletAddress }, call),
    },
  };
}

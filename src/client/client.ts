// `createSluiceClient`: the swap flow of the spec's client sequence (4.12) as functions — quote, check the approval,
// sign and submit the order, follow it until it settles — typed from Sluice's OpenAPI document.
import type { Address, Hex } from "viem";
import type {
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
} from "./api-types.ts";
import { OrderWaitTimeoutError } from "./errors.ts";
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
  /** Between two looks at the order (default 1000 ms: the devnet mines a block a second). */
  intervalMs?: number;
  /** Give up with `OrderWaitTimeoutError` after this long (default 120 000 ms). */
  timeoutMs?: number;
  /** Called with each answer (undefined while the order is not listed yet). */
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
  /** GET /orders with its filters (`orderId`, `orderIds`, `swapper`, `orderStatus`…). */
  orders(query: OrdersQuery, options?: CallOptions): Promise<OrdersResponse>;
  /** Polls GET /orders?orderId= until the order leaves `open` (filled, cancelled, expired, error…) and returns it. */
  waitForOrder(orderId: string, options?: WaitForOrderOptions): Promise<Order>;
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

    orders,

    async waitForOrder(orderId, wait = {}) {
      const intervalMs = wait.intervalMs ?? 1000;
      const timeoutMs = wait.timeoutMs ?? 120_000;
      const giveUpAt = Date.now() + timeoutMs;
      let lastStatus: string | null = null;
      for (;;) {
        const [order] = (await orders({ orderId }, wait)).orders;
        wait.onPoll?.(order);
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

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// @sluice/client: a typed client of Sluice's swap flow for wallet apps. viem is its only dependency (a peer); it
// runs in Node 20+ and in browsers. See docs/wallets.md "Client".
export type * from "./api-types.ts";
export {
  type CallOptions,
  type CheckApprovalParams,
  createSluiceClient,
  type QuoteParams,
  type SluiceClient,
  type SluiceClientOptions,
  type WaitForOrderOptions,
} from "./client.ts";
export { OrderStreamUnavailableError, OrderWaitTimeoutError, SluiceApiError } from "./errors.ts";
export type { paths as SluiceApiPaths } from "./openapi.gen.ts";
export type { OrderStreamEvent, OrderStreamFilter, StreamOrdersOptions } from "./order-stream.ts";
export { type QuoteSigner, signerAddress, signQuote } from "./signing.ts";
export { readServerSentEvents, type ServerSentEvent } from "./sse.ts";
export { sendTransactionRequest, type TransactionRequest } from "./transactions.ts";
export type { Fetch } from "./transport.ts";

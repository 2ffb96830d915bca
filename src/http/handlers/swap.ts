// The swap-flow endpoints: POST /check_approval, POST /quote, POST /order. Each is validate → service → storage.
import type { FastifySerializerCompiler } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { $ZodType } from "zod/v4/core";
import { OverloadedError } from "../../limits/errors.ts";
import type { QuoteAdmission } from "../../limits/quote-admission.ts";
import type { Market } from "../../market/market.ts";
import {
  InvalidSwapperSignatureError,
  QuoteExpiredError,
  QuoteMismatchError,
  QuoteNotFoundError,
  QuoteUnavailableError,
} from "../../orders/errors.ts";
import type { OrderService } from "../../orders/order-service.ts";
import { SolversBusyError } from "../../rounds/errors.ts";
import { checkApproval } from "../../swap/approval-service.ts";
import {
  InvalidOutputsError,
  NoQuotesError,
  UnsupportedChainError,
  UnsupportedTokenError,
} from "../../swap/errors.ts";
import type { QuoteService } from "../../swap/quote-service.ts";
import {
  CheckApprovalRequestSchema,
  CheckApprovalResponseSchema,
  OrderRequestSchema,
  OrderResponseSchema,
  QuoteRequestSchema,
  type QuoteResponse,
  QuoteResponseSchema,
} from "../../swap/schemas.ts";
import { clientIdOf, integratorOf } from "../client-identity.ts";
import { publicBaseUrl } from "../public-url.ts";
import type { Handler } from "../route.ts";

export const checkApprovalSchema = {
  tags: ["swap"],
  summary: "ERC-20 approval transactions for the Reactor",
  description:
    "Allowance sufficient: both null. Allowance zero: only `approval` (approve the Reactor for max uint256). " +
    "Allowance nonzero but short: `cancel` (approve 0) then `approval`.",
  body: CheckApprovalRequestSchema,
  response: { 200: CheckApprovalResponseSchema },
  errors: [UnsupportedChainError, UnsupportedTokenError],
  chain: true,
  descriptions: { 200: "The transactions to send first (none when the allowance already covers `amount`)" },
};

export function checkApprovalHandler(market: Market): Handler<typeof checkApprovalSchema> {
  return async (request) => ({ requestId: request.id, ...(await checkApproval(market, request.body)) });
}

export const quoteSchema = {
  tags: ["swap"],
  summary: "Request quotes from solvers",
  description:
    "Fans out to the enabled solvers with eligible inventory. Quotes are ordered best output first, ties to the " +
    "faster solver. 404 `No quotes available` below the token minimum, with no eligible solver, or no non-zero quote; " +
    "503 `SOLVERS_BUSY` (with `Retry-After`) when no solver quoted and some were left out by their concurrency cap; " +
    "503 `OVERLOADED` (with `Retry-After`), at once, when this replica has as many rounds in flight as it takes.",
  body: QuoteRequestSchema,
  response: { 200: QuoteResponseSchema },
  errors: [
    InvalidOutputsError,
    UnsupportedChainError,
    UnsupportedTokenError,
    NoQuotesError,
    SolversBusyError,
    OverloadedError,
  ],
  database: true,
  chain: true,
  descriptions: { 200: "The quotes, best output first, each with the typed data to sign" },
};

export function quote(
  quotes: QuoteService,
  publicUrl: string | undefined,
  admission: QuoteAdmission,
): Handler<typeof quoteSchema> {
  return async (request) =>
    admission.run(() =>
      quotes.quote(request.body, request.id, publicBaseUrl(request, publicUrl), clientIdOf(request)),
    );
}

/**
 * The 200 answer of /quote is written without checking it against QuoteResponseSchema again: the handler's
 * answer is typed QuoteResponse (the route's 200 type) and built only from values already validated (the request,
 * the deployment, solver answers checked by their schema), and the check cost ~8 % of the server's CPU per /quote.
 * Errors keep the checked serializer.
 */
export const quoteSerializerCompiler: FastifySerializerCompiler<$ZodType> = (responseSchema) => {
  if (responseSchema.httpStatus === "200") return (answer: QuoteResponse) => JSON.stringify(answer);
  return serializerCompiler(responseSchema);
};

export const orderSchema = {
  tags: ["swap"],
  summary: "Submit a signed quote as an order",
  description:
    "Checks, in order: unknown quote id (404); an existing order for the quote with a valid signature is " +
    "returned; expired (409); the quote differs from the one issued (400); invalid signature (400); no solver " +
    "can still honor it (409), or none answered while some were left out by their concurrency cap (503 " +
    "`SOLVERS_BUSY` with `Retry-After`: post the same quote again). The order is counter-signed by the protocol key " +
    "and stored once per quote.",
  body: OrderRequestSchema,
  response: { 200: OrderResponseSchema },
  errors: [
    QuoteNotFoundError,
    QuoteExpiredError,
    QuoteMismatchError,
    InvalidSwapperSignatureError,
    QuoteUnavailableError,
    SolversBusyError,
  ],
  database: true,
  chain: true,
  descriptions: { 200: "The order, counter-signed and stored (the same order again for a re-posted quote)" },
};

export function order(orders: OrderService): Handler<typeof orderSchema> {
  return async (request) => ({
    requestId: request.id,
    ...(await orders.submit(request.body, request.id, clientIdOf(request), integratorOf(request))),
  });
}

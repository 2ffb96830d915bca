// The swap-flow endpoints: POST /check_approval, POST /quote, POST /order. Each is validate → service → storage.
import type { FastifySerializerCompiler } from "fastify";
import { type FastifyPluginAsyncZod, serializerCompiler } from "fastify-type-provider-zod";
import { SwapErrorSchema } from "../http/errors.ts";
import { publicBaseUrl } from "../http/public-url.ts";
import type { Market } from "../market/market.ts";
import type { OrderEvents } from "../orders/order-events.ts";
import { OrderService } from "../orders/order-service.ts";
import { OrderRepository } from "../orders/repository.ts";
import { checkApproval } from "./approval-service.ts";
import { QuoteLookup } from "./quote-lookup.ts";
import { QuoteService } from "./quote-service.ts";
import { QuoteRepository } from "./repository.ts";
import { QuoteRoundWriter } from "./round-writer.ts";
import {
  CheckApprovalRequestSchema,
  CheckApprovalResponseSchema,
  OrderRequestSchema,
  OrderResponseSchema,
  QuoteRequestSchema,
  QuoteResponseSchema,
} from "./schemas.ts";

export interface SwapRoutesOptions {
  swap: Market;
  /** Where a created order is published. */
  orderEvents: OrderEvents;
  publicUrl?: string;
}

/**
 * The 200 answer of /quote is written without checking it against QuoteResponseSchema again: it is typed
 * QuoteResponse and built only from values already validated (the request, the deployment, solver answers
 * checked by their schema), and the check cost ~8 % of the server's CPU per /quote. Errors keep the checked
 * serializer.
 */
function quoteSerializerCompiler<Schema>(routeSchema: Parameters<FastifySerializerCompiler<Schema>>[0]) {
  if (routeSchema.httpStatus === "200") return (data: unknown) => JSON.stringify(data);
  return serializerCompiler(routeSchema as unknown as Parameters<typeof serializerCompiler>[0]);
}

export const swapRoutes: FastifyPluginAsyncZod<SwapRoutesOptions> = async (
  app,
  { swap, orderEvents, publicUrl },
) => {
  const quoteRepository = new QuoteRepository(swap.database);
  const roundWriter = new QuoteRoundWriter({
    save: (rounds) => quoteRepository.saveQuoteRounds(rounds),
    logger: swap.logger,
  });
  const quoteService = new QuoteService(swap, quoteRepository, roundWriter);
  const quoteLookup = new QuoteLookup({
    repository: quoteRepository,
    pending: roundWriter,
    clock: swap.clock,
    quoteLifetimeSeconds: swap.deployment.quoteLifetimeSeconds,
  });
  const orderService = new OrderService(
    swap,
    quoteRepository,
    new OrderRepository(swap.database, orderEvents),
    quoteLookup,
  );
  // Rounds answered but not yet stored are written before the database closes.
  app.addHook("onClose", () => roundWriter.drain());

  app.post(
    "/check_approval",
    {
      schema: {
        tags: ["swap"],
        summary: "ERC-20 approval transactions for the Reactor",
        description:
          "Allowance sufficient: both null. Allowance zero: only `approval` (approve the Reactor for max uint256). " +
          "Allowance nonzero but short: `cancel` (approve 0) then `approval`.",
        body: CheckApprovalRequestSchema,
        response: { 200: CheckApprovalResponseSchema, 400: SwapErrorSchema },
      },
    },
    async (request) => ({ requestId: request.id, ...(await checkApproval(swap, request.body)) }),
  );

  app.post(
    "/quote",
    {
      schema: {
        tags: ["swap"],
        summary: "Request quotes from solvers",
        description:
          "Fans out to the enabled solvers with eligible inventory. Quotes are ordered best output first, ties to the " +
          "faster solver. 404 `No quotes available` below the token minimum, with no eligible solver, or no non-zero quote.",
        body: QuoteRequestSchema,
        response: { 200: QuoteResponseSchema, 400: SwapErrorSchema, 404: SwapErrorSchema },
      },
      serializerCompiler: quoteSerializerCompiler,
    },
    async (request) => quoteService.quote(request.body, request.id, publicBaseUrl(request, publicUrl)),
  );

  app.post(
    "/order",
    {
      schema: {
        tags: ["swap"],
        summary: "Submit a signed quote as an order",
        description:
          "Checks, in order: unknown quote id (404); an existing order for the quote with a valid signature is " +
          "returned; expired (409); the quote differs from the one issued (400); invalid signature (400); no solver " +
          "can still honor it (409). The order is counter-signed by the protocol key and stored once per quote.",
        body: OrderRequestSchema,
        response: {
          200: OrderResponseSchema,
          400: SwapErrorSchema,
          404: SwapErrorSchema,
          409: SwapErrorSchema,
        },
      },
    },
    async (request) => ({ requestId: request.id, ...(await orderService.submit(request.body, request.id)) }),
  );
};

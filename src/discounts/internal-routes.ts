// The internal discount API for internal solvers, mounted at /api-internal/v1 (outside the public /api/v1 and
// its OpenAPI document). Every route needs the solver's id and own secret (solver-auth.ts); errors use the swap
// envelope.
//
//   GET  /api-internal/v1/discounts          → 200 {discounts: [LiveDiscount]}
//   POST /api-internal/v1/discounts/resolve  {discountId} → 200 ResolvedDiscount | 404 NOT_FOUND (not live)
//
// Headers: `x-solver-id: <solver id>`, `x-rfq-shared-secret: <that solver's secret>`; 401 UNAUTHORIZED when
// missing or wrong, 403 UNAUTHORIZED (details.reason `external_solver` | `disabled_solver`) for other solvers.

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Hex } from "viem";
import { SwapErrorSchema } from "../http/errors.ts";
import type { SolverDirectory } from "../solvers/directory.ts";
import {
  discountTermsJson,
  LiveDiscountListSchema,
  ResolveDiscountRequestSchema,
  ResolvedDiscountSchema,
  SolverAuthHeadersSchema,
} from "./schemas.ts";
import { authenticateInternalSolver } from "./solver-auth.ts";
import type { SolverDiscounts } from "./solver-discounts.ts";

export const INTERNAL_API_PREFIX = "/api-internal/v1";

export interface InternalDiscountRoutesOptions {
  discounts: SolverDiscounts;
  solvers: Pick<SolverDirectory, "byId">;
}

const authErrors = { 401: SwapErrorSchema, 403: SwapErrorSchema };

export const internalDiscountRoutes: FastifyPluginAsyncZod<InternalDiscountRoutesOptions> = async (
  app,
  { discounts, solvers },
) => {
  // Before the body is parsed: a caller without credentials learns nothing about the request's shape.
  app.addHook("onRequest", async (request) => {
    authenticateInternalSolver(solvers, request.headers);
  });

  app.get(
    "/discounts",
    {
      schema: {
        hide: true,
        summary: "Live discounts (internal solvers only)",
        description: "Every published discount that is live at the latest block.",
        headers: SolverAuthHeadersSchema,
        response: { 200: LiveDiscountListSchema, 400: SwapErrorSchema, ...authErrors },
      },
    },
    async () => ({
      discounts: (await discounts.list()).map((stored) => ({
        discountId: stored.discountId,
        adapter: stored.adapter,
        ...discountTermsJson(stored.discount),
      })),
    }),
  );

  app.post(
    "/discounts/resolve",
    {
      schema: {
        hide: true,
        summary: "Signatures to fill a discount leg (internal solvers only)",
        description:
          "For a live discount: the signer's signature and a fresh protocol co-signature of `DiscountSwap` whose " +
          "`protocolDeadline` is 90 s after the latest block. The filler adds `recipient` and `amountIn` to make the " +
          "Executor's `DiscountSwapInput`. 404 when the discount is unknown or not live (details.reason).",
        headers: SolverAuthHeadersSchema,
        body: ResolveDiscountRequestSchema,
        response: { 200: ResolvedDiscountSchema, 400: SwapErrorSchema, 404: SwapErrorSchema, ...authErrors },
      },
    },
    async (request) => discounts.resolve(request.body.discountId as Hex),
  );
};

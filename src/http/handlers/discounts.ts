// POST /discount (public: validate → DiscountService → store) and the internal solvers' discount API under
// /api-internal/v1, where every route needs the solver's id and own secret (solver-auth.ts):
//
//   GET  /api-internal/v1/discounts          → 200 {discounts: [LiveDiscount]}
//   POST /api-internal/v1/discounts/resolve  {discountId} → 200 ResolvedDiscount | 404 NOT_FOUND (not live)
//
// Headers: `x-solver-id: <solver id>`, `x-rfq-shared-secret: <that solver's secret>`; 401 UNAUTHORIZED when
// missing or wrong, 403 UNAUTHORIZED (details.reason `external_solver` | `disabled_solver`) for other solvers.
import type { FastifyRequest } from "fastify";
import type { Hex } from "viem";
import {
  DiscountNotLiveError,
  DiscountRejectedError,
  InvalidDiscountSignatureError,
  SolverAuthenticationError,
  SolverForbiddenError,
  UnauthorizedSignerError,
} from "../../discounts/errors.ts";
import {
  DiscountRequestSchema,
  DiscountResponseSchema,
  discountTermsJson,
  LiveDiscountListSchema,
  ResolveDiscountRequestSchema,
  ResolvedDiscountSchema,
  SolverAuthHeadersSchema,
} from "../../discounts/schemas.ts";
import type { DiscountService } from "../../discounts/service.ts";
import { authenticateInternalSolver } from "../../discounts/solver-auth.ts";
import type { SolverDiscounts } from "../../discounts/solver-discounts.ts";
import type { SolverDirectory } from "../../solvers/directory.ts";
import { errorResponses, SwapErrorSchema } from "../errors.ts";
import type { Handler } from "../route.ts";

export const discountSchema = {
  tags: ["discounts"],
  summary: "Publish a signed discount, or cancel one",
  description:
    "`discount` is the EIP-712 `Discount(address tokenToRedeem,uint256 discount,address signer,address " +
    "protocol,uint256 nonce,uint48 deadline)` (domain `LiquidLaneAdapter`, version `1`, the chain id, the " +
    "adapter as verifying contract) plus the adapter; `signature` is the signer's. The signer must be " +
    "authorized on the adapter (owner, market maker or `isFiller(marketMaker, signer)`).\n\n" +
    "Publish (`deadline` > 0): `protocol` must be the deployment's protocol signer, `minDiscount ≤ discount ≤ " +
    "1000000` ppm, the nonce unused on the adapter and the deadline after the latest block's timestamp; the " +
    "discount then replaces whatever the pair (adapter, tokenToRedeem) had, and counts once this answers 200.\n\n" +
    "Cancel (`deadline` 0): any validly signed request of an authorized signer deletes the pair's discount " +
    "and answers its id (with none stored, the cancel's own digest). Each cancel works once, and a cancelled " +
    "discount can never be published again. Cancelling is backend-only: nothing is retracted on-chain.\n\n" +
    "Errors: 400 `VALIDATION_FAILED`; 400 `INVALID_SIGNATURE`; 403 `UNAUTHORIZED_SIGNER`; `DISCOUNT_REJECTED` " +
    "with `details.reason` — 400 `unknown_adapter`, `unsupported_token`, `wrong_protocol`, " +
    "`above_max_discount`, `below_min_discount`, `expired`; 409 `nonce_used`, `cancelled`, `replayed_cancel`. " +
    "Nothing is stored on failure.",
  body: DiscountRequestSchema,
  response: {
    200: DiscountResponseSchema,
    400: SwapErrorSchema,
    ...errorResponses(InvalidDiscountSignatureError, UnauthorizedSignerError, DiscountRejectedError),
  },
};

export function discount(service: DiscountService): Handler<typeof discountSchema> {
  return async (request) => service.submit(request.body);
}

/**
 * Run before the body is parsed: a caller without credentials learns nothing about the request's shape.
 */
export function internalSolverOnly(solvers: Pick<SolverDirectory, "byId">) {
  return async (request: FastifyRequest) => {
    authenticateInternalSolver(solvers, request.headers);
  };
}

const authErrors = errorResponses(SolverAuthenticationError, SolverForbiddenError);

export const liveDiscountsSchema = {
  summary: "Live discounts (internal solvers only)",
  description: "Every published discount that is live at the latest block.",
  headers: SolverAuthHeadersSchema,
  response: { 200: LiveDiscountListSchema, 400: SwapErrorSchema, ...authErrors },
};

export function liveDiscounts(discounts: SolverDiscounts): Handler<typeof liveDiscountsSchema> {
  return async () => ({
    discounts: (await discounts.list()).map((stored) => ({
      discountId: stored.discountId,
      adapter: stored.adapter,
      ...discountTermsJson(stored.discount),
    })),
  });
}

export const resolveDiscountSchema = {
  summary: "Signatures to fill a discount leg (internal solvers only)",
  description:
    "For a live discount: the signer's signature and a fresh protocol co-signature of `DiscountSwap` whose " +
    "`protocolDeadline` is 90 s after the latest block. The filler adds `recipient` and `amountIn` to make the " +
    "Executor's `DiscountSwapInput`. 404 when the discount is unknown or not live (details.reason).",
  headers: SolverAuthHeadersSchema,
  body: ResolveDiscountRequestSchema,
  response: {
    200: ResolvedDiscountSchema,
    400: SwapErrorSchema,
    ...errorResponses(DiscountNotLiveError),
    ...authErrors,
  },
};

export function resolveDiscount(discounts: SolverDiscounts): Handler<typeof resolveDiscountSchema> {
  return async (request) => discounts.resolve(request.body.discountId as Hex);
}

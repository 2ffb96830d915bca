// POST /discount (public: validate → DiscountService → store) and the internal solvers' discount API under
// /api-internal/v1, where every route needs the solver's id and own secret (solver-auth.ts):
//
//   GET  /api-internal/v1/discounts[?selectors]  → 200 {protocol, discounts: [LiveDiscount]}
//   POST /api-internal/v1/discounts  {discountId} | {adapter, tokenToRedeem} → 200 ResolvedDiscount
//                                    {discountIds} | {adapters, tokensToRedeem} → 200 {discounts: [ResolvedDiscount]}
//                                    404 NOT_FOUND when one asked for is not live
//
// The shapes are the real backend's (rfq-backend-internal.openapi.json).
//
// Headers: `x-solver-id: <solver id>`, `x-rfq-shared-secret: <that solver's secret>`; 401 UNAUTHORIZED when
// missing or wrong, 403 UNAUTHORIZED (details.reason `external_solver` | `disabled_solver`) for other solvers.
import type { FastifyRequest } from "fastify";
import type { Address, Hex } from "viem";
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
  LiveDiscountListSchema,
  LiveDiscountQuerySchema,
  ResolveDiscountRequestSchema,
  ResolveDiscountResponseSchema,
  SolverAuthHeadersSchema,
} from "../../discounts/schemas.ts";
import type { DiscountService } from "../../discounts/service.ts";
import { authenticateInternalSolver } from "../../discounts/solver-auth.ts";
import type { SolverDiscounts } from "../../discounts/solver-discounts.ts";
import type { SolverDirectory } from "../../solvers/directory.ts";
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
    "Errors: 400 `VALIDATION_FAILED`; 400 `INVALID_SIGNATURE`; 400 `UNAUTHORIZED_SIGNER`; `DISCOUNT_REJECTED` " +
    "with `details.reason` — 400 `unknown_adapter`, `unsupported_token`, `wrong_protocol`, " +
    "`above_max_discount`, `below_min_discount`, `expired`; 409 `nonce_used`, `cancelled`, `replayed_cancel`. " +
    "Nothing is stored on failure.",
  body: DiscountRequestSchema,
  response: { 200: DiscountResponseSchema },
  errors: [InvalidDiscountSignatureError, UnauthorizedSignerError, DiscountRejectedError],
  chain: true,
  database: true,
  descriptions: { 200: "The discount published (or the pair's discount cancelled), with its id" },
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

const authErrors = [SolverAuthenticationError, SolverForbiddenError];

export const liveDiscountsSchema = {
  summary: "Live discounts (internal solvers only)",
  description:
    "Every published discount that is live at the latest block, with its adapter's payout asset, `getMaxRate` " +
    "and `getMaxAssets` there. Selectors narrow it: `discountId`/`discountIds`, `adapter`/`adapters`, " +
    "`tokenToRedeem`/`tokensToRedeem` (lists comma-separated).",
  headers: SolverAuthHeadersSchema,
  querystring: LiveDiscountQuerySchema,
  response: { 200: LiveDiscountListSchema },
  errors: authErrors,
  chain: true,
  database: true,
};

export function liveDiscounts(discounts: SolverDiscounts): Handler<typeof liveDiscountsSchema> {
  return async (request) => {
    const query = request.query;
    const union = <T>(one: T | undefined, many: T[] | undefined) =>
      one === undefined && many === undefined
        ? undefined
        : [...(one === undefined ? [] : [one]), ...(many ?? [])];
    const listed = await discounts.list({
      ...optional(
        "discountIds",
        union(query.discountId as Hex | undefined, query.discountIds as Hex[] | undefined),
      ),
      ...optional(
        "adapters",
        union(query.adapter as Address | undefined, query.adapters as Address[] | undefined),
      ),
      ...optional(
        "tokensToRedeem",
        union(query.tokenToRedeem as Address | undefined, query.tokensToRedeem as Address[] | undefined),
      ),
    });
    return {
      protocol: discounts.protocol,
      discounts: listed.map(({ discount: stored, state }) => ({
        discountId: stored.discountId,
        adapter: stored.adapter,
        tokenToRedeem: stored.discount.tokenToRedeem,
        collateral: state.asset,
        collateralDecimals: state.assetDecimals,
        discount: stored.discount.discount.toString(),
        signer: stored.discount.signer,
        deadline: stored.discount.deadline,
        maxRate: state.maxRate.toString(),
        maxAssets: state.maxAssets.toString(),
      })),
    };
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export const resolveDiscountSchema = {
  summary: "Signatures to fill discount legs (internal solvers only)",
  description:
    "For a live discount: the signer's signature and a fresh protocol co-signature of `DiscountSwap` whose " +
    "`protocolDeadline` is 90 s after the latest block. Selectors: `{discountId}` or `{adapter, tokenToRedeem}` " +
    "answer one resolved discount; `{discountIds}` or `{adapters, tokensToRedeem}` (pairs) answer `{discounts}` " +
    "in the order asked. The filler adds `recipient` and `amountIn` to make the Executor's `DiscountSwapInput`. " +
    "404 when a discount asked for is unknown or not live (details.reason); the whole batch is refused then.",
  headers: SolverAuthHeadersSchema,
  body: ResolveDiscountRequestSchema,
  response: { 200: ResolveDiscountResponseSchema },
  errors: [DiscountNotLiveError, ...authErrors],
  chain: true,
  database: true,
};

export function resolveDiscount(discounts: SolverDiscounts): Handler<typeof resolveDiscountSchema> {
  return async (request) => {
    const body = request.body;
    if ("discountId" in body) return discounts.resolve(body.discountId as Hex);
    if ("discountIds" in body) return { discounts: await discounts.resolveAll(body.discountIds as Hex[]) };
    if ("adapter" in body)
      return discounts.resolve({
        adapter: body.adapter as Address,
        tokenToRedeem: body.tokenToRedeem as Address,
      });
    const pairs = body.adapters.map((adapter, index) => ({
      adapter: adapter as Address,
      tokenToRedeem: body.tokensToRedeem[index] as Address,
    }));
    return { discounts: await discounts.resolveAll(pairs) };
  };
}

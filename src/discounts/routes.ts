// POST /discount under /api/v1: validate → DiscountService → store.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { SwapErrorSchema } from "../http/errors.ts";
import { DiscountRequestSchema, DiscountResponseSchema } from "./schemas.ts";
import type { DiscountService } from "./service.ts";

export const discountRoutes: FastifyPluginAsyncZod<{ service: DiscountService }> = async (
  app,
  { service },
) => {
  app.post(
    "/discount",
    {
      schema: {
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
          403: SwapErrorSchema,
          409: SwapErrorSchema,
        },
      },
    },
    async (request) => service.submit(request.body),
  );
};

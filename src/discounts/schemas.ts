// Wire formats of POST /discount and of the internal discount API for solvers: one schema each, feeding
// validation, handler types and the OpenAPI document.

import { getAddress, type Hex } from "viem";
import { z } from "zod";
import type { Discount, DiscountSwapInput } from "../chain/order.ts";
import {
  AddressSchema,
  Bytes32Schema,
  HexSchema,
  Uint48Schema,
  Uint256StringSchema,
} from "../shared/wire.ts";

/** The EIP-712 `Discount` as JSON: uint256 values as decimal strings, the uint48 deadline as an integer. */
export const DiscountTermsSchema = z
  .object({
    adapter: AddressSchema.meta({ description: "The adapter: the EIP-712 domain's verifying contract" }),
    tokenToRedeem: AddressSchema,
    discount: Uint256StringSchema.meta({ description: "ppm of the gross oracle output (0–1000000)" }),
    signer: AddressSchema.meta({ description: "Signs the Discount; must be authorized on the adapter" }),
    protocol: AddressSchema.meta({ description: "The deployment's protocol signer" }),
    nonce: Uint256StringSchema.meta({ description: "Adapter nonce of tokenToRedeem; unused on-chain" }),
    deadline: Uint48Schema.meta({ description: "Unix seconds (chain time); 0 cancels the pair's discount" }),
  })
  .meta({ id: "DiscountTerms" });

/** A Discount's terms in their JSON form (DiscountTermsSchema without the adapter, which travels beside them). */
export function discountTermsJson(discount: Discount): Omit<z.output<typeof DiscountTermsSchema>, "adapter"> {
  return {
    tokenToRedeem: discount.tokenToRedeem,
    discount: discount.discount.toString(),
    signer: discount.signer,
    protocol: discount.protocol,
    nonce: discount.nonce.toString(),
    deadline: discount.deadline,
  };
}

export const DiscountRequestSchema = z
  .object({
    discount: DiscountTermsSchema,
    signature: HexSchema.min(4).max(20_000).meta({
      description:
        "The signer's EIP-712 signature of `Discount` (domain LiquidLaneAdapter / 1 / chainId / the adapter)",
    }),
  })
  .meta({ id: "DiscountRequest" });
export type DiscountRequest = z.output<typeof DiscountRequestSchema>;

export const DiscountResponseSchema = z
  .object({
    discountId: Bytes32Schema.meta({
      description:
        "EIP-712 digest of the published Discount; for a cancel, the id of the discount it deleted (or, with " +
        "none stored, the cancel's own digest)",
    }),
  })
  .meta({ id: "DiscountResponse" });

// --- /api-internal/v1/discounts (internal solvers) --------------------------------------------------------

export const SOLVER_ID_HEADER = "x-solver-id";
export const SOLVER_SECRET_HEADER = "x-rfq-shared-secret";

export const SolverAuthHeadersSchema = z.object({
  [SOLVER_ID_HEADER]: z
    .string()
    .optional()
    .meta({ description: "The calling solver's configured id (`<prefix>_<solver_name>`)" }),
  [SOLVER_SECRET_HEADER]: z
    .string()
    .optional()
    .meta({ description: "That solver's own shared secret (the one Sluice sends it with quote requests)" }),
});

// The internal discount API in the real backend's shapes (rfq-backend-internal.openapi.json).

export const LiveDiscountSchema = z
  .object({
    discountId: Bytes32Schema,
    adapter: AddressSchema,
    tokenToRedeem: AddressSchema,
    collateral: AddressSchema.meta({ description: "The adapter's vault asset: what the discount pays out" }),
    collateralDecimals: z.number().int().min(0).max(255),
    discount: Uint256StringSchema.meta({ description: "ppm of the gross oracle output" }),
    signer: AddressSchema,
    deadline: Uint48Schema.meta({ description: "The discount's own deadline (unix seconds, chain time)" }),
    maxRate: Uint256StringSchema.meta({
      description: "`getMaxRate(tokenToRedeem)` at the latest block (1e18)",
    }),
    maxAssets: Uint256StringSchema.meta({ description: "`getMaxAssets(tokenToRedeem)` at the latest block" }),
  })
  .meta({ id: "LiveDiscount" });

export const LiveDiscountListSchema = z
  .object({
    protocol: AddressSchema.meta({ description: "The deployment's protocol signer" }),
    discounts: z.array(LiveDiscountSchema),
  })
  .meta({ id: "LiveDiscountList" });

/** A comma-separated list of `item`s in a query parameter (`discountIds`, `adapters`, `tokensToRedeem`). */
const commaList = (item: typeof Bytes32Schema | typeof AddressSchema) =>
  z
    .string()
    .transform((value) => value.split(",").map((part) => part.trim()))
    .pipe(z.array(item).min(1).max(100));

export const LiveDiscountQuerySchema = z.object({
  discountId: Bytes32Schema.optional(),
  discountIds: commaList(Bytes32Schema).optional(),
  adapter: AddressSchema.optional(),
  tokenToRedeem: AddressSchema.optional(),
  adapters: commaList(AddressSchema).optional(),
  tokensToRedeem: commaList(AddressSchema).optional(),
});
export type LiveDiscountQuery = z.output<typeof LiveDiscountQuerySchema>;

/** One of the four selectors: one id, ids, one (adapter, tokenToRedeem) pair, or pairs (two arrays, zipped). */
export const ResolveDiscountRequestSchema = z
  .union([
    z.object({
      discountId: Bytes32Schema.meta({ description: "A leg's `discountId` from a quote request" }),
    }),
    z.object({ discountIds: z.array(Bytes32Schema).min(1).max(100) }),
    z.object({ adapter: AddressSchema, tokenToRedeem: AddressSchema }),
    z
      .object({
        adapters: z.array(AddressSchema).min(1).max(100),
        tokensToRedeem: z.array(AddressSchema).min(1).max(100),
      })
      .refine((pairs) => pairs.adapters.length === pairs.tokensToRedeem.length, {
        message: "adapters and tokensToRedeem are pairs: give as many of each",
        path: ["tokensToRedeem"],
      }),
  ])
  .meta({ id: "ResolveDiscountRequest" });
export type ResolveDiscountRequest = z.output<typeof ResolveDiscountRequestSchema>;

export const ResolvedDiscountSchema = z
  .object({
    discountId: Bytes32Schema,
    discount: DiscountTermsSchema.meta({ description: "The Discount the signer signed, with its adapter" }),
    signerSignature: HexSchema.meta({ description: "The signer's signature of the Discount" }),
    protocolDeadline: Uint48Schema.meta({
      description: "Unix seconds (chain time): the co-signature's expiry, 90 s after the latest block",
    }),
    protocolSignature: HexSchema.meta({
      description: "The protocol signer's EIP-712 signature of `DiscountSwap` (adapter domain)",
    }),
  })
  .meta({
    id: "ResolvedDiscount",
    description:
      "Everything of an Executor `DiscountSwapInput` but `recipient` and `amountIn`, which the filler chooses: " +
      "`{adapter, discountSwap: {discount, signerSignature, protocolDeadline}, protocolSignature, recipient, amountIn}`.",
  });
export type ResolvedDiscount = z.output<typeof ResolvedDiscountSchema>;

export const ResolvedDiscountBatchSchema = z
  .object({ discounts: z.array(ResolvedDiscountSchema) })
  .meta({ id: "ResolvedDiscountBatch" });

/** A single selector answers one resolved discount; a batch or pairs selector answers `{discounts}` in its order. */
export const ResolveDiscountResponseSchema = z.union([ResolvedDiscountSchema, ResolvedDiscountBatchSchema]);
export type ResolveDiscountResponse = z.output<typeof ResolveDiscountResponseSchema>;

/** A resolved discount as the Executor takes it: all of a `DiscountSwapInput` but what the filler chooses. */
export function discountSwapInputOf(
  resolved: ResolvedDiscount,
): Omit<DiscountSwapInput, "recipient" | "amountIn"> {
  const terms = resolved.discount;
  return {
    adapter: getAddress(terms.adapter),
    discountSwap: {
      discount: {
        tokenToRedeem: getAddress(terms.tokenToRedeem),
        discount: BigInt(terms.discount),
        signer: getAddress(terms.signer),
        protocol: getAddress(terms.protocol),
        nonce: BigInt(terms.nonce),
        deadline: terms.deadline,
      },
      signerSignature: resolved.signerSignature as Hex,
      protocolDeadline: resolved.protocolDeadline,
    },
    protocolSignature: resolved.protocolSignature as Hex,
  };
}

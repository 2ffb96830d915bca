// The solver protocol's wire formats (DESIGN.md §4): what Sluice posts to `{endpoint}/quote` and what a solver
// answers. One schema each, shared by Sluice's client and the reference solver's server.
import { z } from "zod";
import { AddressSchema, ChainIdSchema, Uint256StringSchema } from "../shared/wire.ts";

export const SHARED_SECRET_HEADER = "x-rfq-shared-secret";

export const SolverLegSchema = z.object({
  adapter: AddressSchema,
  asset: AddressSchema,
  assetDecimals: z.number().int().min(0).max(36),
  maxAssets: Uint256StringSchema,
  maxRate: Uint256StringSchema,
  discountId: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .optional(),
});

export const SolverQuoteRequestSchema = z.object({
  requestId: z.uuid(),
  quoteId: z.uuid(),
  tokenInChainId: ChainIdSchema,
  tokenOutChainId: ChainIdSchema,
  swapper: AddressSchema,
  tokenIn: AddressSchema,
  tokenOut: AddressSchema,
  amount: Uint256StringSchema,
  type: z.literal("EXACT_INPUT"),
  protocol: z.literal("v1"),
  numOutputs: z.number().int().min(1),
  adapters: z.array(SolverLegSchema).min(1),
});
export type SolverQuoteRequest = z.infer<typeof SolverQuoteRequestSchema>;

export const SolverQuoteResponseSchema = z.object({
  chainId: ChainIdSchema,
  amountIn: Uint256StringSchema,
  amountOut: Uint256StringSchema,
  filler: AddressSchema,
  requestId: z.string(),
  swapper: AddressSchema,
  tokenIn: AddressSchema,
  tokenOut: AddressSchema,
  quoteId: z.string(),
});
export type SolverQuoteResponse = z.infer<typeof SolverQuoteResponseSchema>;

// Wire formats of POST /liquidity and POST /liquidity-batch (spec 4.5, 4.6): one schema each, feeding validation,
// handler types and the OpenAPI document.
import { z } from "zod";
import { AddressSchema, SolverIdSchema, Uint256StringSchema } from "../shared/wire.ts";

export const TokenInfoSchema = z
  .object({
    address: AddressSchema,
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int().min(0).max(36),
  })
  .meta({ id: "TokenInfo" });

const solverSelection = {
  solverId: SolverIdSchema.optional().meta({
    description: "Restricts `solvers` and `totalLiquidity` to this solver; takes precedence over solverIds",
  }),
  solverIds: z
    .array(SolverIdSchema)
    .max(50)
    .optional()
    .meta({ description: "Restricts `solvers` and `totalLiquidity` to these solvers (`[]` selects none)" }),
};

export const LiquidityRequestSchema = z
  .object({
    tokenIn: AddressSchema.meta({
      description: "A deployment input token with a configured liquidity output token",
    }),
    ...solverSelection,
  })
  .meta({ id: "LiquidityRequest" });
export type LiquidityRequest = z.output<typeof LiquidityRequestSchema>;

export const SolverLiquiditySchema = z.object({
  solverId: z.string(),
  liquidity: Uint256StringSchema.meta({ description: "tokenOut base units" }),
});

export const LiquiditySnapshotSchema = z
  .object({
    tokenIn: AddressSchema,
    tokenOut: AddressSchema.meta({
      description: "The output token all liquidity is denominated in, fixed per tokenIn by the deployment",
    }),
    tokenInInfo: TokenInfoSchema,
    tokenOutInfo: TokenInfoSchema,
    totalLiquidity: Uint256StringSchema.meta({ description: "tokenOut base units" }),
    solvers: z
      .array(SolverLiquiditySchema)
      .meta({ description: "Liquidity descending, ties by solverId; solvers without inventory are omitted" }),
  })
  .meta({ id: "LiquiditySnapshot" });
export type LiquiditySnapshot = z.output<typeof LiquiditySnapshotSchema>;

export const LiquidityBatchRequestSchema = z
  .object({
    tokensIn: z
      .array(AddressSchema)
      .min(1)
      .max(20)
      .meta({ description: "1 to 20 distinct input tokens (compared case-insensitively)" }),
    ...solverSelection,
  })
  .meta({ id: "LiquidityBatchRequest" });
export type LiquidityBatchRequest = z.output<typeof LiquidityBatchRequestSchema>;

export const LiquidityBatchResponseSchema = z
  .object({
    tokensIn: z
      .array(LiquiditySnapshotSchema)
      .meta({ description: "One snapshot per token, in request order" }),
  })
  .meta({ id: "LiquidityBatchResponse" });

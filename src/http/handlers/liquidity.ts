// POST /liquidity and POST /liquidity-batch: validate → LiquidityService → inventory (no storage).

import { DuplicateTokenError, UnsupportedLiquidityTokenError } from "../../liquidity/errors.ts";
import {
  LiquidityBatchRequestSchema,
  LiquidityBatchResponseSchema,
  LiquidityRequestSchema,
  LiquiditySnapshotSchema,
} from "../../liquidity/schemas.ts";
import type { LiquidityService } from "../../liquidity/service.ts";

import type { Handler } from "../route.ts";

const TOTALS =
  "A solver's `liquidity` is the sum of the capacities (`getMaxAssets`, tokenOut base units) of the distinct " +
  "adapters it is offered, under the same authorization and live-discount rules as /quote: its direct legs, plus " +
  "every live discount leg when it is internal. Unfiltered, `totalLiquidity` counts the internal pool (every " +
  "discount-leg adapter and every enabled internal solver's direct-leg adapter) once and adds each enabled external " +
  "solver's liquidity; with `solverId` (which wins) or `solverIds` both `solvers` and the total are restricted to " +
  "the selected enabled solvers (unknown, reserved and disabled ids select nothing). An adapter shared by the " +
  "internal pool and an external solver is counted more than once in the total (spec rule 2), so the total can be " +
  "below the sum of the solver values; it is never below any one of them. No solver is called, nothing is stored " +
  "and no funds are reserved: quote again before signing.";

export const liquiditySchema = {
  tags: ["liquidity"],
  summary: "Adapter inventory available to each eligible solver",
  description: `${TOTALS}\n\n400 \`UNSUPPORTED_TOKEN\` when tokenIn is not an input token with a liquidity output token.`,
  body: LiquidityRequestSchema,
  response: { 200: LiquiditySnapshotSchema },
  errors: [UnsupportedLiquidityTokenError],
  chain: true,
  // Live discount legs are read from the stored discounts.
  database: true,
  descriptions: { 200: "Each eligible solver's liquidity and the total" },
};

export function liquidity(service: LiquidityService): Handler<typeof liquiditySchema> {
  return async (request) => service.liquidity(request.body);
}

export const liquidityBatchSchema = {
  tags: ["liquidity"],
  summary: "Liquidity snapshots for several input tokens",
  description:
    `One /liquidity snapshot per token, in request order, with \`solverId\`/\`solverIds\` applied to every token. ${TOTALS}\n\n` +
    "Every token is checked before any inventory is read: a duplicate (compared case-insensitively) answers " +
    "400 `DUPLICATE_TOKEN`, an unsupported token 400 `UNSUPPORTED_TOKEN` whose `details.token` names it " +
    "(`details.tokens` and `details.issues` list every unsupported one).",
  body: LiquidityBatchRequestSchema,
  response: { 200: LiquidityBatchResponseSchema },
  errors: [UnsupportedLiquidityTokenError, DuplicateTokenError],
  chain: true,
  database: true,
  descriptions: { 200: "One liquidity snapshot per token, in request order" },
};

export function liquidityBatch(service: LiquidityService): Handler<typeof liquidityBatchSchema> {
  return async (request) => service.batch(request.body);
}

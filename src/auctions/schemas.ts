// Wire format of GET /auctions/{requestId}: one schema each for the path and the result, feeding validation, the
// handler's type and the OpenAPI document.
import { z } from "zod";
import { AddressSchema, SolverIdSchema, TimestampSchema, Uint256StringSchema } from "../shared/wire.ts";
import { SOLVER_REJECTIONS } from "../solvers/client.ts";

/** The delay after the quotes' deadline before a round is public (DESIGN: quotes are never leaked while takeable). */
export const PUBLIC_AFTER_DEADLINE_MS = 10_000;

export const AuctionParamsSchema = z.object({
  requestId: z.uuid().meta({
    description: "The `requestId` of a POST /quote answer, or of a POST /order call (its hard round)",
  }),
});

const OfferedLegSchema = z
  .object({
    adapter: AddressSchema,
    maxAssets: Uint256StringSchema.meta({ description: "The leg's capacity in tokenOut base units" }),
    maxRate: Uint256StringSchema.meta({ description: "The leg's rate, 1e18-scaled" }),
  })
  .meta({ id: "AuctionLeg" });

const AuctionAnswerSchema = z
  .object({
    solverId: SolverIdSchema,
    outcome: z.enum(["quoted", "declined", "rejected"]).meta({
      description: "`quoted` (an amount), `declined` (HTTP 204) or `rejected` (no valid quote; see `reason`)",
    }),
    reason: z
      .enum(SOLVER_REJECTIONS)
      .nullable()
      .meta({ description: "Why a rejected answer counted as no quote; null otherwise" }),
    amountOut: Uint256StringSchema.nullable().meta({
      description: "The quoted total in tokenOut base units; null unless quoted",
    }),
    latencyMs: z.number().min(0).meta({ description: "From the request sent to the answer judged, in ms" }),
    rank: z.number().int().min(1).nullable().meta({
      description:
        "1 = best: higher amountOut first, equal amounts to the lower latency (the auction's rule); null unless quoted",
    }),
    legs: z.array(OfferedLegSchema).nullable().meta({
      description: "The adapter legs the solver was offered; null for rounds stored before legs were kept",
    }),
    orderId: z.uuid().nullable().meta({
      description:
        "/quote round: the order this solver's entry became. Hard round: the order this round created, on the winner",
    }),
  })
  .meta({ id: "AuctionAnswer" });

export const AuctionResultSchema = z
  .object({
    requestId: z.uuid(),
    round: z
      .enum(["quote", "order"])
      .meta({ description: "`quote`: a POST /quote round; `order`: a hard round" }),
    quoteRequestId: z.uuid().meta({
      description: "The /quote round's request id (a hard round re-runs that round's chosen entry)",
    }),
    tokenIn: AddressSchema,
    tokenOut: AddressSchema,
    amountIn: Uint256StringSchema,
    createdAt: TimestampSchema.meta({ description: "When the round's answers were recorded" }),
    availableAt: TimestampSchema.meta({
      description:
        "From when the result is public: the quotes' deadline + 10 s (now for a round with no entry)",
    }),
    quotedAmountOut: Uint256StringSchema.nullable().meta({
      description: "Hard round: the entry's quoted total that an answer had to meet; null for a /quote round",
    }),
    winner: z
      .object({
        solverId: SolverIdSchema,
        committedAmountOut: Uint256StringSchema.meta({
          description: "The hard round's total the Order commits (fee outputs keep their signed amounts)",
        }),
      })
      .nullable()
      .meta({
        description:
          "Hard round: the best answer that met the quote; null when none did, and for a /quote round",
      }),
    orderId: z.uuid().nullable().meta({ description: "Hard round: the order it created; null otherwise" }),
    solvers: z.array(AuctionAnswerSchema).meta({
      description: "Every solver asked: quoted answers by rank, then the others in the order they were asked",
    }),
  })
  .meta({ id: "AuctionResult" });
export type AuctionResult = z.infer<typeof AuctionResultSchema>;

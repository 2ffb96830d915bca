// Wire formats of GET /solvers and /solvers/{id}: one schema each, feeding validation, handler types and the OpenAPI
// document.
import { z } from "zod";
import { SolverIdSchema } from "../shared/wire.ts";
import { SOLVER_REJECTIONS } from "../solvers/client.ts";

const count = z.number().int().min(0);
const percentiles = (what: string) =>
  z
    .object({
      p50: z.number().nullable(),
      p99: z.number().nullable(),
    })
    .meta({
      description:
        `${what} percentiles in ms, from log-scale buckets: each is its bucket's geometric midpoint, within 9.1 % ` +
        "of the true value (0.5 ms below 1 ms); null without any sample",
    });

export const ScorecardWindowSchema = z
  .object({
    from: z.iso.datetime().meta({ description: "The start of the window's oldest minute or hour bucket" }),
    auctions: z.object({
      offered: count.meta({
        description: "Rounds the solver was asked in (/quote rounds and /order hard rounds)",
      }),
      quoted: count,
      declined: count.meta({ description: "Answered 204: no quote" }),
      rejected: z
        .object(
          Object.fromEntries(SOLVER_REJECTIONS.map((reason) => [reason, count])) as Record<
            (typeof SOLVER_REJECTIONS)[number],
            typeof count
          >,
        )
        .meta({ description: "Answers Sluice rejected, by reason" }),
    }),
    answerLatencyMs: percentiles("Answer latency (every answer but timeouts and network failures)"),
    wins: z.object({
      soft: count.meta({ description: "Best entry (rank 0) of a /quote round" }),
      hard: count.meta({ description: "Best answer meeting the quoted total in an /order hard round" }),
    }),
    orders: z
      .object({
        assigned: count,
        filled: count,
        expired: count.meta({ description: "Assigned and expired unfilled (faded)" }),
      })
      .meta({ description: "Orders accepted in the window, by their status now" }),
    fillLatencyMs: percentiles("Order accepted → the indexer saw its fill (the server's clock)"),
    priceImprovement: z.object({
      averageBps: z.number().nullable().meta({
        description:
          "Mean over filled orders of floor((committed − quoted) × 10000 / quoted), to 0.01 bps; null without any",
      }),
      filledOrders: count,
    }),
  })
  .meta({ id: "ScorecardWindow" });

export const SolverScorecardSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    metadata: z.object({ logoUrl: z.url().optional() }),
    enabled: z.boolean(),
    cooldownUntil: z.iso
      .datetime()
      .nullable()
      .meta({ description: "The end of the solver's cooldown; null: none" }),
    cooldownReason: z.string().nullable(),
    scorecard: z
      .object({ hour: ScorecardWindowSchema, day: ScorecardWindowSchema, week: ScorecardWindowSchema })
      .meta({
        description:
          "The last hour (60 minute buckets), day (24 hour buckets) and week (168 hour buckets), each ending with " +
          "the current bucket; at most 1 s stale",
      }),
  })
  .meta({ id: "SolverScorecard" });

export const SolversResponseSchema = z
  .object({ solvers: z.array(SolverScorecardSchema) })
  .meta({ id: "SolversResponse" });

export const SolverParamsSchema = z.object({ id: SolverIdSchema });

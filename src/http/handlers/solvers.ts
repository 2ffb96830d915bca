// GET /solvers and GET /solvers/{id}: validate → ScorecardService (a cache over the aggregate tables).
import { SolverNotFoundError } from "../../scorecards/errors.ts";
import {
  SolverParamsSchema,
  SolverScorecardSchema,
  SolversResponseSchema,
} from "../../scorecards/schemas.ts";
import type { ScorecardService } from "../../scorecards/service.ts";
import { publicBaseUrl } from "../public-url.ts";
import type { Handler } from "../route.ts";

const JSON_TYPE = "application/json; charset=utf-8";

const FRESHNESS =
  "Counts are kept per solver per minute and per hour as answers and orders are written (any replica), and served " +
  "from a cache at most 1 s stale.";

export const solversSchema = {
  tags: ["solvers"],
  summary: "Every configured solver with its cooldown and scorecard",
  description: `Every solver of the deployment, enabled or not, in the deployment file's order. ${FRESHNESS}`,
  response: { 200: SolversResponseSchema },
  database: true,
  descriptions: { 200: "The solvers and their scorecards over the last hour, day and week" },
};

export function solvers(
  service: ScorecardService,
  publicUrl: string | undefined,
): Handler<typeof solversSchema> {
  return async (request, reply) =>
    reply.type(JSON_TYPE).send(await service.listJson(publicBaseUrl(request, publicUrl)));
}

export const solverSchema = {
  tags: ["solvers"],
  summary: "One solver with its cooldown and scorecard",
  description: `${FRESHNESS} 404 \`SOLVER_NOT_FOUND\` for an id that is not a configured solver.`,
  params: SolverParamsSchema,
  response: { 200: SolverScorecardSchema },
  errors: [SolverNotFoundError],
  database: true,
  descriptions: { 200: "The solver and its scorecard over the last hour, day and week" },
};

export function solver(
  service: ScorecardService,
  publicUrl: string | undefined,
): Handler<typeof solverSchema> {
  return async (request, reply) =>
    reply.type(JSON_TYPE).send(await service.oneJson(request.params.id, publicBaseUrl(request, publicUrl)));
}

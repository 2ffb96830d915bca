// The system endpoints: the liveness and readiness probes, Prometheus metrics, the OpenAPI document and its docs page.
import swaggerUi from "@fastify/swagger-ui";
import { z } from "zod";
import type { Clock } from "../../clock.ts";
import type { ReadinessChecks } from "../../readiness/checks.ts";
import { TimestampSchema } from "../../shared/wire.ts";
import type { Lifecycle } from "../lifecycle.ts";
import type { HttpMetrics } from "../metrics.ts";
import type { App, Handler, RouteEntry } from "../route.ts";
import { MetricsElsewhereError } from "../system-errors.ts";

// `timestamp` is the real document's (HealthResponse requires it); the spec names only `status`.
const HealthSchema = z
  .object({
    status: z.enum(["ok", "draining"]),
    timestamp: TimestampSchema.meta({ description: "The server's time of the answer (ISO 8601, UTC)" }),
  })
  .meta({ id: "Health" });

export const healthSchema = {
  tags: ["system"],
  summary: "Liveness probe",
  description:
    "200 `ok` while running, 503 `draining` once shutdown starts, each with the server's `timestamp`. Checks no " +
    "dependency.",
  response: { 200: HealthSchema, 503: HealthSchema },
  descriptions: {
    200: "Running (`ok`)",
    503: "Draining (`draining`): shutdown has started, send traffic elsewhere",
  },
};

export function health(lifecycle: Lifecycle, clock: Clock): Handler<typeof healthSchema> {
  return async (_request, reply) => {
    const timestamp = clock.now().toISOString();
    if (lifecycle.draining) return reply.code(503).send({ status: "draining", timestamp });
    return { status: "ok" as const, timestamp };
  };
}

const ReadinessCheckSchema = z
  .object({
    name: z
      .string()
      .meta({ description: "The check: `serving`, `database`, `migrations`, `chain-head`, `indexer`…" }),
    status: z.enum(["pass", "fail"]),
    message: z.string().meta({ description: "What it found, for a person" }),
    durationMs: z.number().int().min(0),
    details: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .optional()
      .meta({ description: "The facts behind it (blocks as decimal strings, lags, ages)" }),
  })
  .meta({ id: "ReadinessCheck" });

const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "not-ready"]),
    timestamp: TimestampSchema.meta({ description: "The server's time of the answer (ISO 8601, UTC)" }),
    failing: z.array(z.string()).meta({ description: "The names of the failing checks (empty when ready)" }),
    checks: z.array(ReadinessCheckSchema),
  })
  .meta({ id: "Readiness" });

export const readySchema = {
  tags: ["system"],
  summary: "Readiness probe",
  description:
    "200 `ready` when every check passes: the database answers, the migrations are current, the RPC gave a fresh " +
    "head, the indexer (on any replica) is within its lag bound, and so is every other configured chain follower. " +
    "503 `not-ready` naming the failing checks otherwise (and while draining). Each check is bounded by " +
    "READY_CHECK_TIMEOUT_MS. Unlike /health, route traffic by this one.",
  response: { 200: ReadinessSchema, 503: ReadinessSchema },
  descriptions: {
    200: "Ready (`ready`): every check passed",
    503: "Not ready (`not-ready`): `failing` names the checks that failed",
  },
};

export function ready(readiness: ReadinessChecks, clock: Clock): Handler<typeof readySchema> {
  return async (_request, reply) => {
    const report = await readiness.evaluate();
    const body = {
      status: report.ready ? ("ready" as const) : ("not-ready" as const),
      timestamp: clock.now().toISOString(),
      failing: report.failing,
      checks: report.checks.map(({ name, ok, message, durationMs, details }) => ({
        name,
        status: ok ? ("pass" as const) : ("fail" as const),
        message,
        durationMs,
        ...(details ? { details } : {}),
      })),
    };
    return reply.code(report.ready ? 200 : 503).send(body);
  };
}

export const hiddenSchema = { hide: true };

/** The entry points (`/`, `/api/v1`): not operations of the API, so not in its document. */
export const redirectSchema = {
  hide: true,
  response: { 302: z.null().describe("Found: the docs page") },
};

/** A 302 to `location`: where a newcomer typing the server's address lands. */
export function redirectTo(location: string): Handler<typeof redirectSchema> {
  return async (_request, reply) => reply.redirect(location, 302);
}

export function metrics(httpMetrics: HttpMetrics): Handler<typeof hiddenSchema> {
  return async (_request, reply) => {
    reply.header("content-type", httpMetrics.registry.contentType);
    return httpMetrics.registry.metrics();
  };
}

/** GET /metrics on the public port: where Prometheus should scrape instead (once the internal listener listens). */
export function metricsElsewhere(metricsUrl: () => string | undefined): Handler<typeof hiddenSchema> {
  return async () => {
    throw new MetricsElsewhereError(metricsUrl());
  };
}

/** The document generated from every documented route's schemas (src/http/openapi.ts). */
export const openApiDocument: Handler<typeof hiddenSchema> = async (request) => request.server.swagger();

/** The docs page and its static files, reading the document at `documentPath`. */
export function docs(path: string, documentPath: string): RouteEntry {
  return {
    method: "GET",
    path,
    listener: "public",
    mount: (app: App) => {
      app.register(swaggerUi, { routePrefix: path, uiConfig: { url: documentPath, deepLinking: true } });
    },
  };
}

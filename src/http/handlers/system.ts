// The system endpoints: the liveness probe, Prometheus metrics, the OpenAPI document and its docs page.
import swaggerUi from "@fastify/swagger-ui";
import { z } from "zod";
import type { Clock } from "../../clock.ts";
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

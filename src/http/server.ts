// Builds the Fastify application: request ids, logging, metrics, CORS, the two error envelopes and the OpenAPI
// document, then mounts the route table (routes.ts) it is given.
import swagger from "@fastify/swagger";
import underPressure from "@fastify/under-pressure";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import { hasZodFastifySchemaValidationErrors, serializerCompiler } from "fastify-type-provider-zod";
import { asChainUnavailable } from "../chain/unavailable.ts";
import type { Clock } from "../clock.ts";
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from "../config/http-timeouts.ts";
import { asDatabaseUnavailable } from "../db/unavailable.ts";
import { OverloadedError } from "../limits/errors.ts";
import type { QuoteAdmission } from "../limits/quote-admission.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import { uuidV7 } from "../shared/uuid-v7.ts";
import { boundClose } from "./bounded-close.ts";
import { createClientErrorHandler } from "./client-errors.ts";
import { mountPreflightRoute, publicCors } from "./cors.ts";
import { errorAnswer } from "./error-table.ts";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isPartnerPath,
  partnerBody,
  swapBody,
  type ValidationIssue,
} from "./errors.ts";
import { type AllowedHosts, guardHost } from "./host-guard.ts";
import type { HttpMetrics } from "./metrics.ts";
import { openApiOptions } from "./openapi.ts";
import type { DocumentExamples } from "./openapi-examples.ts";
import { RATE_LIMIT_HEADERS, type RequestLimits, rateLimitRejection } from "./request-limits.ts";
import { logAsOutage, requestLogLevel } from "./request-log.ts";
import { deferredChildLogger } from "./request-logger.ts";
import type { App, RouteEntry } from "./route.ts";
import { timeoutCheckIntervalMs } from "./timeouts.ts";
import type { SluiceTypeProvider } from "./type-provider.ts";
import { wellFormedValidatorCompiler } from "./well-formed-text.ts";

export { API_VERSION } from "./openapi.ts";
export type { App } from "./route.ts";
export { API_PREFIX, INTERNAL_API_PREFIX } from "./route.ts";

export interface ServerOptions {
  clock: Clock;
  logger: Logger;
  /** Counted by every answer, served by /metrics. */
  metrics: HttpMetrics;
  /** The route table (routes.ts): every entry is mounted, in order. */
  routes: readonly RouteEntry[];
  /** The OpenAPI document's examples, made from the deployment served (openapi-examples.ts). */
  examples?: DocumentExamples;
  /** Client and shutdown timeouts; each one not given is DEFAULT_HTTP_TIMEOUTS'. */
  timeouts?: Partial<HttpTimeouts>;
  /**
   * The internal listener's guards instead of the public API's CORS: no CORS at all, and only requests whose Host
   * names the listener (host-guard.ts).
   */
  internal?: { allowedHosts: AllowedHosts };
  /** The public API's request limits: keys and rates of every route with a limit class (request-limits.ts). */
  limits?: RequestLimits;
  /** /quote's load shedding, whose event-loop lag this server measures (@fastify/under-pressure). */
  quoteAdmission?: QuoteAdmission;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client. */
  trustProxy?: string;
}

/** The server, its routes mounted; not listening (the composition root's start() listens). */
export async function buildServer(options: ServerOptions): Promise<App> {
  const { clock, logger, metrics } = options;
  const context = { clock };
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Each request's logger (bound to its request id) is made at its first line: most reads write none.
    childLoggerFactory: deferredChildLogger,
    // A fresh id per attempt; an inbound X-Request-Id is not trusted as ours.
    genReqId: () => uuidV7(),
    requestIdHeader: false,
    // One line per request is written by our onResponse hook; Fastify's own per-request lines are off.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    // While draining, requests on open connections still get real answers (and /health says so).
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs(timeouts),
    },
    // Fastify applies these itself (its requestTimeout would otherwise turn Node's off).
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    clientErrorHandler: createClientErrorHandler({
      clock,
      logger,
      onAnswered: (status) => metrics.requests.inc({ method: "", route: "(client error)", status }),
    }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    // Malformed URLs (bad percent-encoding, over-long parameters) get the same envelopes as everything else.
    frameworkErrors: (error, request, reply) => {
      reply.header("x-request-id", request.id);
      return sendError(error, request, reply, context);
    },
  }).withTypeProvider<SluiceTypeProvider>();

  app.setValidatorCompiler(wellFormedValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  boundClose(app, timeouts.shutdownMs, logger);

  // The public API's CORS, set by the one onRequest hook below; the internal listener has none.
  const cors = options.internal
    ? undefined
    : publicCors(["X-Request-Id", "X-Trace-Id", "Retry-After", ...RATE_LIMIT_HEADERS]);

  // One plain callback, not an async function nor one hook per concern: every request runs it, and a promise or a
  // hook per step is work a bare route skips. A preflight is answered by the CORS step, with both ids.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    const traceId = request.headers["x-trace-id"];
    if (typeof traceId === "string" && traceId.length > 0) reply.header("x-trace-id", traceId);
    if (cors?.apply(request, reply)) return;
    done();
  });
  if (cors) mountPreflightRoute(app);

  // One line per request, successful or failed, with the same id as the X-Request-Id header.
  app.addHook("onResponse", (request, reply, done) => {
    // Fastify builds a new object at each read of routeOptions: read once.
    const { url, config } = request.routeOptions;
    const route = url ?? "(unmatched)";
    const status = reply.statusCode;
    const durationMs = Math.round(reply.elapsedTime * 1000) / 1000;
    metrics.series.record(request.method, route, status, durationMs / 1000);
    const level = requestLogLevel(request, status, config.routineLog);
    // The line is built only when it is written (a successful partner read is at debug: skipped at info).
    if ((request.log as Logger).isLevelEnabled(level)) {
      const line = { method: request.method, route, url: request.url, status, durationMs };
      request.log[level](line, "request");
    }
    done();
  });

  if (options.internal) app.addHook("onRequest", guardHost(options.internal.allowedHosts, clock));
  // The admin points import reads its upload as it arrives: such a body is the request's stream, never a buffer.
  if (options.internal)
    app.addContentTypeParser("application/octet-stream", (_request, payload, done) => done(null, payload));

  await app.register(
    swagger,
    openApiOptions({ routes: options.routes, ...(options.examples ? { examples: options.examples } : {}) }),
  );

  // After the request id and the CORS headers: a refusal carries both.
  if (options.limits) options.limits.register(app);
  if (options.quoteAdmission) {
    // No thresholds: it only samples the event loop; /quote alone is shed, by its admission.
    await app.register(underPressure, { sampleInterval: 250 });
    const sampled = app as unknown as { memoryUsage(): { eventLoopDelay: number } };
    options.quoteAdmission.measureLagWith(() => sampled.memoryUsage().eventLoopDelay);
  }

  // Refusals by a rate limit, wherever they are thrown (the limits' hook, a stream's count), by class and integrator.
  app.addHook("onError", (request, _reply, error, done) => {
    const rejection = rateLimitRejection(request, error);
    if (rejection) metrics.rateLimitRejections.inc(rejection);
    done();
  });
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply, context));
  app.setNotFoundHandler((request, reply) => {
    if (isPartnerPath(request.url)) {
      return reply.code(404).send(partnerBody("pageNotFound", "Page not found"));
    }
    return reply.code(404).send(swapBody(404, "NOT_FOUND", "Not found", undefined, context.clock.now()));
  });

  for (const entry of options.routes) entry.mount(app);
  return app;
}

function sendError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  context: { clock: Clock },
) {
  const partner = isPartnerPath(request.url);
  const now = context.clock.now();
  // A client that hung up before its body was read (Node's "aborted", code ECONNRESET): its failure is its own.
  if (request.raw.destroyed && !request.raw.complete)
    request.log.debug({ err: error }, "the client hung up before its request was read");

  // A named domain failure: its status and code are the error table's, its message and details its own. The chain
  // out of reach is one (CHAIN_UNAVAILABLE), wherever viem's wrapping left its transport failure.
  const answer = errorAnswer(error) ?? errorAnswer(asChainUnavailable(error));
  if (answer) {
    // An outage's failures are the outage's log lines (src/outages.ts), not one error per request.
    if (answer.status >= 500) {
      // Shedding is this replica's deliberate answer, told once per episode by the admission (quote-admission.ts).
      const level = error instanceof OverloadedError ? "debug" : failureLevel(error, "error");
      if (level === "debug") logAsOutage(request);
      request.log[level]({ err: error }, "request failed");
    }
    if (answer.envelope === "partner")
      return reply.code(answer.status).send(partnerBody(answer.code, answer.message));
    if (answer.retryAfterSeconds !== undefined) reply.header("retry-after", String(answer.retryAfterSeconds));
    return reply
      .code(answer.status)
      .send(swapBody(answer.status, answer.code, answer.message, answer.details, now));
  }

  // The database out of reach (or not answering in time) is a 503 a client may retry, never a 500.
  const unavailable = asDatabaseUnavailable(error);
  if (unavailable) {
    logAsOutage(request);
    request.log.debug({ err: unavailable }, "database unavailable");
    if (partner) return reply.code(503).send(partnerBody("ooops", DATABASE_UNAVAILABLE_MESSAGE));
    return reply
      .code(503)
      .send(swapBody(503, "SERVICE_UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE, undefined, now));
  }

  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues: ValidationIssue[] = error.validation.map((issue) => ({
      path: issuePath(error.validationContext, issue.instancePath),
      message: issue.message,
    }));
    const message = `Invalid ${error.validationContext ?? "request"}: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`;
    if (partner) return reply.code(400).send(partnerBody("anErrorOccurred", message));
    return reply.code(400).send(swapBody(400, "VALIDATION_FAILED", message, { issues }, now));
  }

  // Fastify's own client errors: malformed JSON, wrong content type, body too large.
  const status = typeof error.statusCode === "number" ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    if (partner)
      return reply.code(status === 404 ? 404 : 400).send(partnerBody("anErrorOccurred", error.message));
    // The docs' static file server refuses paths outside its folder (traversal, NUL) with 403: to the client that
    // is a path that does not exist.
    if (status === 403 || status === 404)
      return reply.code(404).send(swapBody(404, "NOT_FOUND", "Not found", undefined, now));
    const code =
      status === 415 ? "UNSUPPORTED_MEDIA_TYPE" : status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION_FAILED";
    const details =
      code === "VALIDATION_FAILED" ? { issues: [{ path: "(body)", message: error.message }] } : undefined;
    return reply.code(status).send(swapBody(status, code, error.message, details, now));
  }

  request.log.error({ err: error }, "unhandled error");
  if (partner) return reply.code(500).send(partnerBody("ooops", "Something went wrong"));
  return reply.code(500).send(swapBody(500, "INTERNAL", "Internal error", undefined, now));
}

function issuePath(context: string | undefined, instancePath: string): string {
  const path = instancePath.replace(/^\//, "").split("/").filter(Boolean).join(".");
  if (path) return path;
  return context === "body" ? "(body)" : (context ?? "(request)");
}

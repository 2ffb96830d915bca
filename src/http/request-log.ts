// Every request gets one log line (server.ts): at error for a 5xx, at info otherwise, except for requests a route
// marks as routine — a solver polling its open orders twice a second — which are at debug, so an idle server's log
// is not a wall of polls (LOG_LEVEL=debug shows them).
import type { FastifyRequest } from "fastify";

export type RequestLogLevel = "error" | "info" | "debug";

const routine = new WeakSet<FastifyRequest>();

/** Logs this request's line at debug (unless it fails with a 5xx). */
export function logAsRoutine(request: FastifyRequest): void {
  routine.add(request);
}

export function requestLogLevel(request: FastifyRequest, status: number): RequestLogLevel {
  if (status >= 500) return "error";
  return routine.has(request) ? "debug" : "info";
}

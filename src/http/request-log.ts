// Every request gets one log line (server.ts): at error for a 5xx, at info otherwise, except for routine requests —
// a solver polling its open orders twice a second, and every successful partner read (/entities, /points: cached
// answers read by the thousand) — which are at debug, so the log is not a wall of reads (LOG_LEVEL=debug shows them)
// and writing it is no part of a read's cost, and for a 503 an outage explains (the database or the chain
// out of reach), at info: the outage's own two lines are its warnings (src/outages.ts), not one error per request.
import type { FastifyRequest } from "fastify";

export type RequestLogLevel = "error" | "info" | "debug";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's successful answers are logged at debug (route.ts: the partner API's reads). */
    routineLog?: true;
  }
}

const routine = new WeakSet<FastifyRequest>();
const outage = new WeakSet<FastifyRequest>();

/** Logs this request's line at debug (unless it fails with a 5xx). */
export function logAsRoutine(request: FastifyRequest): void {
  routine.add(request);
}

/** This request's failure is an outage's (its answer a 503 the outage explains). */
export function logAsOutage(request: FastifyRequest): void {
  outage.add(request);
}

/** The level of a request's line; `routineRoute`: its route's `routineLog` (the caller has its route's options). */
export function requestLogLevel(
  request: FastifyRequest,
  status: number,
  routineRoute: boolean | undefined,
): RequestLogLevel {
  if (status >= 500) return outage.has(request) ? "info" : "error";
  if (status < 400 && routineRoute) return "debug";
  return routine.has(request) ? "debug" : "info";
}

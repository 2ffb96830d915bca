// Who a request comes from, as the services share solver capacity between callers: the caller the request limits
// found (request-limits.ts: an integrator's API key, a solver, or the client address), else the client's address as
// Fastify sees it (`request.ip`, from X-Forwarded-For only behind a proxy TRUST_PROXY names).
import type { FastifyRequest } from "fastify";
import type { ClientId } from "../solvers/concurrency.ts";

export function clientIdOf(request: Pick<FastifyRequest, "ip" | "caller">): ClientId {
  return request.caller?.id ?? request.ip;
}

/** The integrator whose API key the request carries (orders record it); undefined for the anonymous tier. */
export function integratorOf(request: Pick<FastifyRequest, "caller">): string | undefined {
  return request.caller?.kind === "key" ? request.caller.integrator : undefined;
}

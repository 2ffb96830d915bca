// CORS of the public API: any origin may read the answers (the request's Origin reflected, with Vary: Origin), the
// ids and limit headers a client needs are exposed, and a preflight (any OPTIONS request) is answered 204 at once with
// the methods and the request's headers allowed. These are the answers @fastify/cors gave with `origin: true` and
// `strictPreflight: false` (test/http/cors.test.ts compares both on the same requests); this is one plain callback
// with its header values made once, where the plugin copied its options and built the route's options twice on
// every request.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "./route.ts";
import { varyWith } from "./vary.ts";

const ALLOWED_METHODS = "GET,HEAD,POST";

export interface Cors {
  /** Sets the CORS headers of one request; true when the request was a preflight, answered here. */
  apply(request: FastifyRequest, reply: FastifyReply): boolean;
}

/** The public server's CORS, `apply` called by the server's one onRequest hook (server.ts). */
export function publicCors(exposedHeaders: readonly string[]): Cors {
  const exposed = exposedHeaders.join(", ");
  return {
    apply(request, reply) {
      const origin = request.headers.origin;
      reply.header("vary", varyWith(reply.getHeader("vary"), "Origin"));
      if (origin) reply.header("access-control-allow-origin", origin);
      reply.header("access-control-expose-headers", exposed);
      if (request.raw.method !== "OPTIONS") return false;
      reply.header("access-control-allow-methods", ALLOWED_METHODS);
      reply.header("vary", varyWith(reply.getHeader("vary"), "Access-Control-Request-Headers"));
      const requested = request.headers["access-control-request-headers"];
      if (requested !== undefined) reply.header("access-control-allow-headers", requested);
      // Some browsers wait for a body on a 204 without a length.
      reply.code(204).header("content-length", "0").send();
      return true;
    },
  };
}

/**
 * An OPTIONS route on every path, so that a preflight is routed wherever it is sent (its answer is `apply`'s, given
 * before any route runs; the handler is never reached).
 */
export function mountPreflightRoute(app: App): void {
  app.options("*", { schema: { hide: true } }, (_request, reply) => reply.code(204).send());
}

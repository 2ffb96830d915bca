// Answers a body prepared once and sent many times (registry lists): 304 when the client already has it, else the
// bytes in the best encoding the client accepts. Fastify writes a Buffer as it is, without the route's serializer:
// the bytes were validated against the same schema when they were prepared (PreparedJson.of).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ContentEncoding, PreparedJson } from "../registry/prepared-json.ts";
import type { JsonBytes } from "../shared/json-text.ts";
import { varyWith } from "./vary.ts";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * The answer to return: the prepared JSON's bytes (headers set), at once unless a compressed body is still being made
 * (then a promise of it); undefined once the reply has sent a bodiless 304. A route can answer from a cache without a
 * promise per request (`preparedRoute`).
 */
export function preparedAnswer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedJson<T>,
): JsonBytes<T> | Promise<JsonBytes<T>> | undefined {
  reply.header("etag", prepared.etag);
  // Added to CORS's Vary: Origin, not in its place: the answer depends on both (a shared cache must not hand one
  // origin's reply, with its Access-Control-Allow-Origin, to another).
  reply.header("vary", varyWith(reply.getHeader("vary"), "accept-encoding"));
  if (matchesEtag(request.headers["if-none-match"], prepared.etag)) {
    reply.code(304).send();
    return undefined;
  }
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  reply.type(JSON_CONTENT_TYPE);
  if (!encoding) return prepared.body;
  reply.header("content-encoding", encoding);
  return prepared.encodedNow(encoding) ?? prepared.encoded(encoding);
}

/**
 * A handler answering what `cache` holds: without a promise when the cache is fresh (the usual case), else once it
 * is read.
 */
export function preparedRoute<T>(cache: {
  current(): PreparedJson<T> | undefined;
  get(): Promise<PreparedJson<T>>;
}): (
  request: FastifyRequest,
  reply: FastifyReply,
) => JsonBytes<T> | Promise<JsonBytes<T> | undefined> | undefined {
  return (request, reply) => {
    const prepared = cache.current();
    if (prepared) return preparedAnswer(request, reply, prepared);
    return cache.get().then((read) => preparedAnswer(request, reply, read));
  };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/** The acceptable (q > 0) compression the client prefers, `br` on a tie; identity when neither is. */
export function preferredEncoding(header: string | undefined): ContentEncoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(quality) ? quality : 0);
  }
  const quality = (name: ContentEncoding) => accepted.get(name) ?? accepted.get("*") ?? 0;
  const br = quality("br");
  const gzip = quality("gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : undefined;
}

// Answers a body prepared once and sent many times (registry lists): 304 when the client already has it, else the
// bytes in the best encoding the client accepts. Fastify writes a Buffer as it is, without the route's serializer:
// the bytes were validated against the same schema when they were prepared (PreparedJson.of).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ContentEncoding, PreparedJson } from "../registry/prepared-json.ts";
import type { JsonBytes } from "../shared/json-text.ts";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The answer to return: the prepared JSON (headers set), or the reply once it has sent a bodiless 304. */
export async function preparedAnswer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedJson<T>,
): Promise<JsonBytes<T> | FastifyReply> {
  reply.header("etag", prepared.etag);
  reply.header("vary", "accept-encoding");
  if (matchesEtag(request.headers["if-none-match"], prepared.etag)) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  reply.type(JSON_CONTENT_TYPE);
  if (!encoding) return prepared.body;
  const body = await prepared.encoded(encoding);
  reply.header("content-encoding", encoding);
  return body;
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

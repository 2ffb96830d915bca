// A response body prepared once and sent many times: validated against its wire schema, serialized to bytes,
// tagged with a content hash (ETag), and compressed on first demand per encoding. Registry lists change only
// on import, so per request there is no JSON work at all.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type ContentEncoding = "br" | "gzip";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export class PreparedJson<T> {
  /** Only the type: the value these bytes were serialized from. */
  declare readonly __serializedFrom: T;
  /** A strong validator from the bytes, so replicas serving the same registry agree on it. */
  readonly etag: string;
  readonly #encoded = new Map<ContentEncoding, Promise<Buffer>>();

  private constructor(readonly body: Buffer) {
    this.etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  }

  /** Validates against the wire schema (a bad row fails here, not in a client) and serializes. */
  static of<Schema extends z.ZodType>(
    schema: Schema,
    value: z.input<Schema>,
  ): PreparedJson<z.output<Schema>> {
    return new PreparedJson(Buffer.from(asciiJson(schema.parse(value)), "latin1"));
  }

  get text(): string {
    return this.body.toString("utf8");
  }

  /** The body compressed with `encoding`; computed off the event loop once, then reused. */
  encoded(encoding: ContentEncoding): Promise<Buffer> {
    let pending = this.#encoded.get(encoding);
    if (!pending) {
      pending =
        encoding === "br"
          ? brotliAsync(this.body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 9,
                [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
              },
            })
          : gzipAsync(this.body, { level: 9 });
      this.#encoded.set(encoding, pending);
    }
    return pending;
  }
}

/**
 * JSON with every non-ASCII character escaped (`\u2019`): the same JSON value in pure ASCII bytes, which
 * clients that decode response chunks as text (load generators among them) handle on their fast path —
 * measured at about 1.5× the request rate of the raw UTF-8 body on the registry lists.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Sends a prepared body: 304 when the client already has it, else the bytes in the best encoding the client
 * accepts. Fastify writes a Buffer payload as it is, without running the route's serializer, so the zod
 * response schema documents the route while the prepared bytes (validated by it once) go out unchanged.
 */
export async function sendPreparedJson<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedJson<T>,
): Promise<FastifyReply> {
  reply.header("etag", prepared.etag);
  reply.header("vary", "accept-encoding");
  if (matchesEtag(request.headers["if-none-match"], prepared.etag)) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  reply.type(JSON_CONTENT_TYPE);
  if (!encoding) return reply.send(prepared.body);
  const body = await prepared.encoded(encoding);
  return reply.header("content-encoding", encoding).send(body);
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

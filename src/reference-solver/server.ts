// The reference solver's side of the solver protocol (DESIGN.md §4): `POST {basePath}/quote` over node:http.
// 401 without the right `x-rfq-shared-secret`, 422 for a body that is not a valid quote request, 204 to decline,
// 200 with the echoed quote, 503 when its own chain read fails. One log line per request.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.ts";
import { SHARED_SECRET_HEADER, SolverQuoteRequestSchema } from "../solvers/protocol.ts";
import type { QuoteOutcome } from "./quoter.ts";

const MAX_BODY_BYTES = 1024 * 1024;

export interface QuoteServerOptions {
  host: string;
  port: number;
  basePath: string;
  sharedSecret: string;
  quote: (request: ReturnType<typeof SolverQuoteRequestSchema.parse>) => Promise<QuoteOutcome>;
  logger: Logger;
}

export interface QuoteServer {
  /** `http://host:port{basePath}`: the endpoint to register in Sluice's deployment. */
  url: string;
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

interface Answer {
  status: number;
  body?: unknown;
  /** Extra fields for the request's log line. */
  log: Record<string, unknown>;
}

export async function startQuoteServer(options: QuoteServerOptions): Promise<QuoteServer> {
  const quotePath = `${options.basePath}/quote`;
  const secretDigest = digest(options.sharedSecret);

  async function answer(req: IncomingMessage): Promise<Answer> {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== quotePath) return { status: 404, body: { error: "not found" }, log: {} };
    if (req.method !== "POST") return { status: 405, body: { error: "use POST" }, log: {} };
    const secret = req.headers[SHARED_SECRET_HEADER];
    // Compared as digests so the comparison takes the same time whatever the secret's length.
    if (typeof secret !== "string" || !timingSafeEqual(digest(secret), secretDigest)) {
      return { status: 401, body: { error: `missing or wrong ${SHARED_SECRET_HEADER}` }, log: {} };
    }
    let json: unknown;
    try {
      json = JSON.parse(await readBody(req));
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        return { status: 413, body: { error: "body too large" }, log: {} };
      return { status: 422, body: { error: "body is not JSON" }, log: {} };
    }
    const parsed = SolverQuoteRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join("."),
        message: issue.message,
      }));
      return { status: 422, body: { error: "not a valid quote request", issues }, log: { issues } };
    }
    const request = parsed.data;
    const ids = { requestId: request.requestId, quoteId: request.quoteId };
    // What Sluice offered, so the log shows whether discount legs came (they do for an internal solver only).
    const offered = {
      offeredLegs: request.adapters.length,
      discountLegs: request.adapters.filter((leg) => leg.discountId !== undefined).length,
    };
    let outcome: QuoteOutcome;
    try {
      outcome = await options.quote(request);
    } catch (error) {
      options.logger.error({ ...ids, err: error }, "quote failed: chain read error");
      return { status: 503, body: { error: "cannot read the chain" }, log: ids };
    }
    if (outcome.kind === "decline") {
      return { status: 204, log: { ...ids, ...offered, declined: outcome.reason } };
    }
    return {
      status: 200,
      body: outcome.response,
      log: {
        ...ids,
        ...offered,
        amountIn: outcome.response.amountIn,
        amountOut: outcome.response.amountOut,
        legs: outcome.legs.map((leg) => ({
          adapter: leg.adapter,
          ...(leg.discount ? { discountId: leg.discount.discountId } : {}),
          amountIn: leg.amountIn.toString(),
          amountOut: leg.amountOut.toString(),
        })),
      },
    };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    answer(req)
      .catch((error: unknown): Answer => {
        options.logger.error({ err: error }, "quote request failed");
        return { status: 500, body: { error: "internal error" }, log: {} };
      })
      .then(({ status, body, log }) => {
        if (body === undefined) res.writeHead(status).end();
        else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        options.logger.info(
          { method: req.method, url: req.url, status, durationMs, ...log },
          "quote request",
        );
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = publicHost(options.host);
  return {
    url: `http://${host}:${port}${options.basePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A host clients can connect to: an unspecified bind address is reached over loopback. */
function publicHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the connection can still carry the 413.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) reject(new BodyTooLargeError());
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

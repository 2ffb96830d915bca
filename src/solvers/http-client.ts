// The HTTP transport of solver quote requests: `node:http(s)` on a keep-alive agent per solver, so an auction
// reuses warm connections instead of paying for `fetch` (undici, WHATWG streams, a Request/Response and an
// AbortSignal per call), which was the largest CPU cost of POST /quote. The round's deadline ends a request still
// open by destroying it (no AbortSignal either). Answers are read up to a size limit.
import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { SolverDeadline } from "./deadline.ts";
import type { Solver } from "./directory.ts";
import { SHARED_SECRET_HEADER } from "./protocol.ts";

/** A quote answer is a few hundred bytes; anything far larger is not an answer and is not read to the end. */
export const MAX_SOLVER_ANSWER_BYTES = 64 * 1024;

/**
 * Idle connections are closed after this long: below the 5 s keep-alive timeout common to HTTP servers (Node's
 * included), so Sluice closes an idle connection before the solver does. A shorter `Keep-Alive: timeout=` hint
 * from the solver wins.
 */
export const SOLVER_IDLE_SOCKET_MS = 4000;

export interface SolverHttpAnswer {
  status: number;
  body: string;
}

export class SolverAnswerTooLargeError extends Error {
  override name = "SolverAnswerTooLargeError";
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`);
  }
}

/** The request was still open when its round's deadline passed: destroyed unanswered. */
export class SolverDeadlinePassedError extends Error {
  override name = "SolverDeadlinePassedError";
  constructor() {
    super("no answer before the deadline");
  }
}

export class SolverAnswerCutOffError extends Error {
  override name = "SolverAnswerCutOffError";
  constructor() {
    super("connection closed before the answer was complete");
  }
}

export interface SolverHttpClientOptions {
  maxAnswerBytes?: number;
  idleSocketMs?: number;
}

type SolverTarget = Pick<Solver, "endpoint" | "sharedSecret">;

/** Where one solver's quote requests go, resolved once: the parsed URL, its agent and fixed headers. */
interface QuoteEndpoint {
  secure: boolean;
  hostname: string;
  port: string;
  path: string;
  agent: HttpAgent;
  /**
   * The request's header lines but its length, as `http.request` takes them in an array: an array is written as
   * given, not stored header by header and read back as an object is. `Host` comes after the length, where Node
   * puts the one it adds itself, so the bytes sent are the same.
   */
  headers: string[];
  /** `Host`'s value, as Node derives it from the URL (the port left out when it is the scheme's). */
  host: string;
}

export class SolverHttpClient {
  readonly #endpoints = new WeakMap<SolverTarget, QuoteEndpoint>();
  readonly #agents = new Set<HttpAgent>();
  readonly #maxAnswerBytes: number;
  readonly #idleSocketMs: number;

  constructor(options: SolverHttpClientOptions = {}) {
    this.#maxAnswerBytes = options.maxAnswerBytes ?? MAX_SOLVER_ANSWER_BYTES;
    this.#idleSocketMs = options.idleSocketMs ?? SOLVER_IDLE_SOCKET_MS;
  }

  /**
   * POSTs a JSON body to `{endpoint}/quote` (keeping any base path). Resolves with any status; rejects on a
   * network failure, with `SolverDeadlinePassedError` when `deadline` passes first (the request is destroyed) or
   * with `SolverAnswerTooLargeError`.
   */
  post(solver: SolverTarget, body: string, deadline: SolverDeadline): Promise<SolverHttpAnswer> {
    const endpoint = this.#endpointOf(solver);
    return new Promise<SolverHttpAnswer>((resolve, reject) => {
      this.#send(endpoint, body, deadline, resolve, (error) => {
        // A kept-alive connection the solver closed while idle fails at once, before the solver saw anything:
        // that one is retried on a fresh connection.
        if (error instanceof StaleConnectionError) {
          if (deadline.closed) reject(error.cause);
          else this.#send(endpoint, body, deadline, resolve, (again) => reject(unstale(again)));
        } else reject(error);
      });
    });
  }

  /** Closes every connection (idle or not). */
  close(): void {
    for (const agent of this.#agents) agent.destroy();
    this.#agents.clear();
  }

  #endpointOf(solver: SolverTarget): QuoteEndpoint {
    let endpoint = this.#endpoints.get(solver);
    if (!endpoint) {
      endpoint = this.#resolve(solver);
      this.#endpoints.set(solver, endpoint);
    }
    return endpoint;
  }

  #resolve(solver: SolverTarget): QuoteEndpoint {
    const url = new URL(quoteUrl(solver.endpoint));
    const secure = url.protocol === "https:";
    const agentOptions = { keepAlive: true, timeout: this.#idleSocketMs, scheduling: "lifo" as const };
    const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.#agents.add(agent);
    return {
      secure,
      // The URL API keeps IPv6 literals bracketed; the socket wants them bare.
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port,
      path: `${url.pathname}${url.search}`,
      agent,
      headers: [
        "content-type",
        "application/json",
        ...(solver.sharedSecret ? [SHARED_SECRET_HEADER, solver.sharedSecret] : []),
      ],
      // The URL API leaves the scheme's own port out and keeps IPv6 literals bracketed, as Node's Host does.
      host: url.host,
    };
  }

  /** Sends one request; settles through `resolve` or `fail`, exactly once. */
  #send(
    endpoint: QuoteEndpoint,
    body: string,
    deadline: SolverDeadline,
    resolve: (answer: SolverHttpAnswer) => void,
    fail: (error: unknown) => void,
  ): void {
    const limit = this.#maxAnswerBytes;
    const options = {
      method: "POST",
      hostname: endpoint.hostname,
      port: endpoint.port,
      path: endpoint.path,
      agent: endpoint.agent,
      headers: [
        ...endpoint.headers,
        "content-length",
        String(Buffer.byteLength(body)),
        "Host",
        endpoint.host,
      ],
    };
    let settled = false;
    let answered = false;
    const waiter = { end: () => request.destroy(new SolverDeadlinePassedError()) };
    const reject = (error: unknown) => {
      if (settled) return;
      settled = true;
      deadline.forget(waiter);
      fail(error);
    };
    const request: ClientRequest = (endpoint.secure ? httpsRequest : httpRequest)(options, (response) => {
      answered = true;
      const status = response.statusCode ?? 0;
      const declared = Number(response.headers["content-length"] ?? 0);
      if (declared > limit) {
        request.destroy();
        reject(new SolverAnswerTooLargeError(limit));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          request.destroy();
          reject(new SolverAnswerTooLargeError(limit));
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => {
        if (settled) return;
        settled = true;
        deadline.forget(waiter);
        const text =
          chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
        resolve({ status, body: text });
      });
      // An answer cut off: the solver hung up, or the auction closed and destroyed the request.
      response.on("error", reject);
      response.on("close", () => {
        if (!response.complete) reject(new SolverAnswerCutOffError());
      });
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && error.code === "ECONNRESET" && !answered;
      reject(stale ? new StaleConnectionError(error) : error);
    });
    deadline.wait(waiter);
    request.end(body);
  }
}

/** The URL quote requests go to: `{endpoint}/quote`, keeping any base path. */
export function quoteUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/quote`;
}

/** A request that failed on a reused keep-alive connection before any answer: safe to send again, once. */
class StaleConnectionError extends Error {
  override name = "StaleConnectionError";
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

/** A second attempt is not retried again: a stale connection then fails with its own error. */
function unstale(error: unknown): unknown {
  return error instanceof StaleConnectionError ? error.cause : error;
}

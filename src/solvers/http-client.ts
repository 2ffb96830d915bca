// The HTTP transport of solver quote requests: a small HTTP/1.1 client on kept-alive connections, a pool per solver.
// An auction sends six requests per /quote, and `node:http`'s client (a ClientRequest, an IncomingMessage, the
// agent's bookkeeping and a dozen listeners added and removed per request) cost about three times the CPU of the
// request itself; `fetch` (undici, WHATWG streams, an AbortSignal per call) cost more still. Here a connection's
// listeners are set once, a request is one write of bytes built mostly once per solver, and its answer is read by
// HttpAnswerParser (http-answer.ts). The round's deadline ends a request still open by destroying its connection.
// Answers are read up to a size limit.
import { isIP, type Socket, connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { DeadlineWaiter, SolverDeadline } from "./deadline.ts";
import type { Solver } from "./directory.ts";
import { HttpAnswerParser, SolverAnswerTooLargeError } from "./http-answer.ts";
import { SHARED_SECRET_HEADER } from "./protocol.ts";

export { SolverAnswerTooLargeError };

/** A quote answer is a few hundred bytes; anything far larger is not an answer and is not read to the end. */
export const MAX_SOLVER_ANSWER_BYTES = 64 * 1024;

/**
 * Idle connections are closed after this long: below the 5 s keep-alive timeout common to HTTP servers (Node's
 * included), so Sluice closes an idle connection before the solver does. A shorter `Keep-Alive: timeout=` hint
 * from the solver wins, less a second.
 */
export const SOLVER_IDLE_SOCKET_MS = 4000;

export interface SolverHttpAnswer {
  status: number;
  body: string;
}

/** The request was still open when its round's deadline passed: destroyed unanswered. */
export class SolverDeadlinePassedError extends Error {
  override name = "SolverDeadlinePassedError";
  constructor() {
    super("no answer before the deadline");
  }
}

/** The solver closed the connection before any byte of an answer (the words and code Node's client uses). */
export class SolverHangUpError extends Error {
  override name = "SolverHangUpError";
  readonly code = "ECONNRESET";
  constructor() {
    super("socket hang up");
  }
}

/** The connection closed with the answer begun but not complete (the word Node's client uses). */
export class SolverAnswerCutOffError extends Error {
  override name = "SolverAnswerCutOffError";
  readonly code = "ECONNRESET";
  constructor() {
    super("aborted");
  }
}

export interface SolverHttpClientOptions {
  maxAnswerBytes?: number;
  idleSocketMs?: number;
}

type SolverTarget = Pick<Solver, "endpoint" | "sharedSecret">;

/** Where one solver's quote requests go, resolved once: the address, the request's fixed bytes, idle connections. */
interface QuoteEndpoint {
  secure: boolean;
  /** The socket's host: IPv6 literals bare. */
  hostname: string;
  port: number;
  /** The request's head up to the length's value, and from after it to the body. */
  headStart: string;
  headEnd: string;
  /** Whether the head is ASCII: it then goes out in one string with the (UTF-8) body. */
  asciiHead: boolean;
  /** Connections waiting for a request, the most recently used last. */
  idle: SolverConnection[];
  /** The last TLS session, to resume on the next connection. */
  tlsSession: Buffer | undefined;
}

/** A header value Node's client would refuse (ERR_INVALID_CHAR). */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

export class SolverHttpClient {
  readonly #endpoints = new WeakMap<SolverTarget, QuoteEndpoint>();
  readonly #connections = new Set<SolverConnection>();
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
    return new Promise<SolverHttpAnswer>((resolve, reject) => {
      // Inside the promise: an endpoint or secret that cannot make a request rejects, as a network failure would.
      const endpoint = this.#endpointOf(solver);
      const bytes = requestBytes(endpoint, body);
      this.#send(endpoint, bytes, deadline, false, resolve, (error) => {
        // A kept-alive connection the solver closed while idle fails at once, before the solver answered anything:
        // that one is sent again on a fresh connection (which, never reused, cannot fail as stale).
        if (error instanceof StaleConnectionError) {
          if (deadline.closed) reject(error.cause);
          else this.#send(endpoint, bytes, deadline, true, resolve, reject);
        } else reject(error);
      });
    });
  }

  /** Closes every connection (idle or not). */
  close(): void {
    for (const connection of this.#connections) connection.destroy();
    this.#connections.clear();
  }

  #endpointOf(solver: SolverTarget): QuoteEndpoint {
    let endpoint = this.#endpoints.get(solver);
    if (!endpoint) {
      endpoint = resolveEndpoint(solver);
      this.#endpoints.set(solver, endpoint);
    }
    return endpoint;
  }

  /** Sends one request; settles through `resolve` or `fail`, exactly once. */
  #send(
    endpoint: QuoteEndpoint,
    bytes: string | Buffer,
    deadline: SolverDeadline,
    fresh: boolean,
    resolve: (answer: SolverHttpAnswer) => void,
    fail: (error: unknown) => void,
  ): void {
    const exchange = new Exchange(new HttpAnswerParser(this.#maxAnswerBytes), deadline, resolve, fail);
    deadline.wait(exchange);
    // A deadline already passed sends nothing.
    if (exchange.settled) return;
    const connection = (fresh ? undefined : takeIdle(endpoint)) ?? this.#open(endpoint);
    connection.start(exchange, bytes);
  }

  #open(endpoint: QuoteEndpoint): SolverConnection {
    const connection = new SolverConnection(endpoint, this.#idleSocketMs, (closed) =>
      this.#connections.delete(closed),
    );
    this.#connections.add(connection);
    return connection;
  }
}

/** One request on a connection: settles once, with the answer or an error, and leaves the deadline's list. */
class Exchange implements DeadlineWaiter {
  settled = false;
  connection: SolverConnection | undefined;

  constructor(
    readonly parser: HttpAnswerParser,
    private readonly deadline: SolverDeadline,
    private readonly resolve: (answer: SolverHttpAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** The deadline passed: the request is destroyed with its connection. */
  end(): void {
    if (this.settled) return;
    this.fail(new SolverDeadlinePassedError());
    this.connection?.destroy();
  }

  succeed(answer: SolverHttpAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.forget(this);
    this.resolve(answer);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.forget(this);
    this.reject(error);
  }
}

/**
 * One kept-alive connection to a solver. Its listeners are added once, when it opens; it carries one request at a
 * time, and is idle (unreferenced, in its endpoint's pool) between them.
 */
class SolverConnection {
  readonly #socket: Socket;
  #exchange: Exchange | undefined;
  /** Whether a request went out on this connection before the current one. */
  #reused = false;
  #closed = false;

  constructor(
    private readonly endpoint: QuoteEndpoint,
    private readonly idleMs: number,
    private readonly onClosed: (connection: SolverConnection) => void,
  ) {
    const socket = endpoint.secure
      ? tlsConnect({
          host: endpoint.hostname,
          port: endpoint.port,
          ...(isIP(endpoint.hostname) === 0 ? { servername: endpoint.hostname } : {}),
          ...(endpoint.tlsSession ? { session: endpoint.tlsSession } : {}),
        })
      : tcpConnect({ host: endpoint.hostname, port: endpoint.port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    socket.setTimeout(idleMs);
    if (endpoint.secure) socket.on("session", (session: Buffer) => (endpoint.tlsSession = session));
    socket.on("data", (data: Buffer) => this.#onData(data));
    socket.on("end", () => this.#onClose(undefined));
    socket.on("error", (error: Error) => this.#onClose(error));
    socket.on("close", () => this.#onClose(undefined));
    // An idle connection past its time is closed; one in use waits for its request's deadline instead.
    socket.on("timeout", () => {
      if (!this.#exchange) this.destroy();
    });
    this.#socket = socket;
  }

  start(exchange: Exchange, bytes: string | Buffer): void {
    this.#exchange = exchange;
    exchange.connection = this;
    this.#socket.ref();
    this.#socket.write(bytes);
  }

  destroy(): void {
    this.#socket.destroy();
    this.#onClose(undefined);
  }

  #onData(data: Buffer): void {
    const exchange = this.#exchange;
    // Bytes nobody asked for: the connection's next answer could not be told apart from them.
    if (!exchange) {
      this.destroy();
      return;
    }
    const { parser } = exchange;
    let complete: boolean;
    try {
      complete = parser.push(data);
    } catch (error) {
      this.#exchange = undefined;
      this.destroy();
      exchange.fail(error);
      return;
    }
    if (!complete) return;
    this.#exchange = undefined;
    if (parser.reusable) this.#release(parser.keepAliveHintMs);
    else this.destroy();
    exchange.succeed({ status: parser.status, body: parser.body });
  }

  /** Back to the endpoint's pool, for its idle time (or the solver's shorter hint, less a second). */
  #release(hintMs: number | undefined): void {
    if (hintMs !== undefined && hintMs - 1000 < this.idleMs) {
      if (hintMs - 1000 <= 0) {
        this.destroy();
        return;
      }
      this.#socket.setTimeout(hintMs - 1000);
    }
    this.#reused = true;
    this.#socket.unref();
    this.endpoint.idle.push(this);
  }

  /** The connection ended, failed or was destroyed: the request on it (if any) is settled, once. */
  #onClose(error: Error | undefined): void {
    const exchange = this.#exchange;
    this.#exchange = undefined;
    if (!this.#closed) {
      this.#closed = true;
      if (!this.#socket.destroyed) this.#socket.destroy();
      const idle = this.endpoint.idle.indexOf(this);
      if (idle >= 0) this.endpoint.idle.splice(idle, 1);
      this.onClosed(this);
    }
    if (!exchange || exchange.settled) return;
    const { parser } = exchange;
    if (parser.end()) {
      exchange.succeed({ status: parser.status, body: parser.body });
    } else if (parser.started) {
      exchange.fail(new SolverAnswerCutOffError());
    } else {
      const failure = error ?? new SolverHangUpError();
      exchange.fail(this.#reused ? new StaleConnectionError(failure) : failure);
    }
  }

  get closed(): boolean {
    return this.#closed;
  }
}

function takeIdle(endpoint: QuoteEndpoint): SolverConnection | undefined {
  let connection = endpoint.idle.pop();
  while (connection?.closed) connection = endpoint.idle.pop();
  return connection;
}

function resolveEndpoint(solver: SolverTarget): QuoteEndpoint {
  const url = new URL(quoteUrl(solver.endpoint));
  const secure = url.protocol === "https:";
  if (!secure && url.protocol !== "http:") throw new TypeError(`Protocol "${url.protocol}" not supported`);
  const secret = solver.sharedSecret;
  if (secret !== undefined && INVALID_HEADER_CHAR.test(secret))
    throw new TypeError(`Invalid character in header content ["${SHARED_SECRET_HEADER}"]`);
  // The bytes Node's client wrote from the same headers: the header lines as given, then the length, Host (the
  // URL's, the scheme's own port left out) and Connection.
  const headStart =
    `POST ${url.pathname}${url.search} HTTP/1.1\r\ncontent-type: application/json\r\n` +
    (secret ? `${SHARED_SECRET_HEADER}: ${secret}\r\n` : "") +
    "content-length: ";
  const headEnd = `\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`;
  return {
    secure,
    // The URL API keeps IPv6 literals bracketed; the socket wants them bare.
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    headStart,
    headEnd,
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is what is tested
    asciiHead: /^[\x00-\x7f]*$/.test(headStart),
    idle: [],
    tlsSession: undefined,
  };
}

/** The request's bytes: one string when the head is ASCII, else the head in Latin-1 before the UTF-8 body. */
function requestBytes(endpoint: QuoteEndpoint, body: string): string | Buffer {
  const head = `${endpoint.headStart}${Buffer.byteLength(body)}${endpoint.headEnd}`;
  if (endpoint.asciiHead) return `${head}${body}`;
  return Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body, "utf8")]);
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

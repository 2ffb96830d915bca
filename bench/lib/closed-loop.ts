// A closed-loop load generator for latency-bound routes: `connections` keep-alive connections, each sending its
// next request as soon as the previous answer has fully arrived, for a fixed time. Unlike autocannon it keeps
// every request's latency at sub-millisecond resolution and hands each answer to `inspect`, so a suite can tie
// a latency to what the answer says (e.g. its requestId) and subtract a per-request figure from it.
//
// `transport: "lean"` sends each request as one write of bytes built once, on a socket per connection, and reads the
// answer with Sluice's own answer parser (src/solvers/http-answer.ts) instead of `node:http`: a load generator that
// takes a third of the CPU per request, for runs where its share of the machine's cores is what is in the way.
import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { HttpAnswerParser } from "../../src/solvers/http-answer.ts";

export interface ClosedLoopOptions<Tag> {
  url: string;
  method?: "GET" | "POST";
  body?: string;
  connections: number;
  durationSeconds: number;
  /** Reads one answer; its result is kept with the request's latency. */
  inspect?: (status: number, body: Buffer) => Tag;
  /**
   * The loopback addresses the connections are opened from, in turn (connection i from address i mod n): several
   * clients as the server tells them apart (its per-client shares), where one address would be held to one share.
   */
  localAddresses?: readonly string[];
  /** `node:http` (the default) or the lean client described above. */
  transport?: "node:http" | "lean";
}

export interface TimedRequest<Tag> {
  latencyMs: number;
  status: number;
  tag: Tag | undefined;
}

export interface ClosedLoopResult<Tag> {
  requests: TimedRequest<Tag>[];
  requestsPerSecond: number;
  errors: number;
}

function send(
  agent: Agent,
  url: URL,
  method: string,
  body: string | undefined,
  localAddress: string | undefined,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        ...(localAddress === undefined ? {} : { localAddress }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One kept-alive socket of the lean transport: one request at a time, its listeners set once. */
class LeanConnection {
  #socket: Socket | undefined;
  #parser: HttpAnswerParser | undefined;
  #settle: ((error: Error | undefined) => void) | undefined;

  constructor(
    private readonly url: URL,
    private readonly localAddress: string | undefined,
  ) {}

  send(bytes: string): Promise<{ status: number; body: Buffer }> {
    const socket = this.#socket ?? this.#open();
    const parser = new HttpAnswerParser(Number.POSITIVE_INFINITY);
    this.#parser = parser;
    return new Promise((resolve, reject) => {
      this.#settle = (error) => {
        this.#settle = undefined;
        if (error) return reject(error);
        if (!parser.reusable) this.close();
        resolve({ status: parser.status, body: Buffer.from(parser.body) });
      };
      socket.write(bytes);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #open(): Socket {
    const socket = connect({
      host: this.url.hostname,
      port: Number(this.url.port),
      noDelay: true,
      ...(this.localAddress === undefined ? {} : { localAddress: this.localAddress }),
    });
    const ended = (error?: Error) => {
      if (this.#socket === socket) this.#socket = undefined;
      socket.destroy();
      if (this.#parser?.end()) this.#settle?.(undefined);
      else this.#settle?.(error ?? new Error("connection closed before the answer"));
    };
    socket.on("data", (data: Buffer) => {
      try {
        if (this.#parser?.push(data)) this.#settle?.(undefined);
      } catch (error) {
        this.close();
        this.#settle?.(error as Error);
      }
    });
    socket.on("error", ended);
    socket.on("end", () => ended());
    this.#socket = socket;
    return socket;
  }
}

function leanRequestBytes(url: URL, method: string, body: string | undefined): string {
  const head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  if (body === undefined) return `${head}\r\n`;
  return `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

export async function runClosedLoop<Tag>(options: ClosedLoopOptions<Tag>): Promise<ClosedLoopResult<Tag>> {
  const url = new URL(options.url);
  const method = options.method ?? "GET";
  const lean = options.transport === "lean";
  const leanBytes = leanRequestBytes(url, method, options.body);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const requests: TimedRequest<Tag>[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  const addresses = options.localAddresses ?? [];
  const loop = async (connection: number) => {
    const localAddress = addresses.length === 0 ? undefined : addresses[connection % addresses.length];
    const leanConnection = lean ? new LeanConnection(url, localAddress) : undefined;
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        const answer = leanConnection
          ? await leanConnection.send(leanBytes)
          : await send(agent, url, method, options.body, localAddress);
        const latencyMs = performance.now() - sent;
        requests.push({
          latencyMs,
          status: answer.status,
          tag: options.inspect?.(answer.status, answer.body),
        });
      } catch {
        errors++;
      }
    }
    leanConnection?.close();
  };
  await Promise.all(Array.from({ length: options.connections }, (_, connection) => loop(connection)));
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests, requestsPerSecond: requests.length / elapsedSeconds, errors };
}

/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

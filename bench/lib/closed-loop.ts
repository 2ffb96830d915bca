// A closed-loop load generator for latency-bound routes: `connections` keep-alive connections, each sending its
// next request as soon as the previous answer has fully arrived, for a fixed time. Unlike autocannon it keeps
// every request's latency at sub-millisecond resolution and hands each answer to `inspect`, so a suite can tie
// a latency to what the answer says (e.g. its requestId) and subtract a per-request figure from it.
import { Agent, request } from "node:http";

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

export async function runClosedLoop<Tag>(options: ClosedLoopOptions<Tag>): Promise<ClosedLoopResult<Tag>> {
  const url = new URL(options.url);
  const method = options.method ?? "GET";
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const requests: TimedRequest<Tag>[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  const addresses = options.localAddresses ?? [];
  const loop = async (connection: number) => {
    const localAddress = addresses.length === 0 ? undefined : addresses[connection % addresses.length];
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        const answer = await send(agent, url, method, options.body, localAddress);
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

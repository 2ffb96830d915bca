// One autocannon run against a URL, with the figures the reports need.
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  throughputMBps: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /** A path per request (e.g. a rotation of many receivers); `url`'s path otherwise. */
  nextPath?: () => string;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? "GET",
    body: options.body,
    headers: { ...(options.body ? { "content-type": "application/json" } : {}), ...options.headers },
    timeout: 30,
    ...(options.nextPath
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({ ...request, path: options.nextPath!() }),
            },
          ],
        }
      : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    throughputMBps: result.throughput.average / 1e6,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

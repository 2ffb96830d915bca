// The per-request series (src/http/request-series.ts) read as prom-client's own Counter and Histogram would have
// read after the same requests: the same /metrics text, counts added between reads included, and the same JSON.
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createHttpMetrics } from "../../src/http/metrics.ts";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** prom-client's own metrics, fed per request as the server used to. */
function promClientSeries() {
  const registry = new Registry();
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "sluice_http_requests_total",
    help: "HTTP requests answered, by route template and status",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "sluice_http_request_duration_seconds",
    help: "HTTP request duration, by route template and status",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    record(method: string, route: string, status: number, seconds: number) {
      requests.inc({ method, route, status });
      duration.observe({ method, route, status }, seconds);
    },
  };
}

/** The two series' lines of a /metrics text. */
function httpSeries(text: string): string {
  return text
    .split("\n\n")
    .map((block) => block.trim())
    .filter((block) => block.includes("sluice_http_request"))
    .join("\n\n");
}

const REQUESTS: Array<[string, string, number, number]> = [
  ["GET", "/api/v1/entities/vaults", 200, 0.0004],
  ["GET", "/api/v1/entities/vaults", 200, 0.001],
  ["GET", "/api/v1/entities/vaults", 304, 0.0002],
  ["POST", "/api/v1/quote", 200, 0.061],
  ["GET", "(unmatched)", 404, 0.0001],
  ["GET", "/api/v1/entities/vaults", 200, 7.5],
  ["POST", "/api/v1/quote", 429, 0.0003],
  ["GET", "/api/v1/entities/vaults", 200, 0.0025],
];

describe("the per-request series", () => {
  it("reads as prom-client's Counter and Histogram fed the same requests, before and after more of them", async () => {
    const ours = createHttpMetrics({ collectProcessMetrics: false });
    const theirs = promClientSeries();
    const both = (request: [string, string, number, number]) => {
      ours.series.record(...request);
      theirs.record(...request);
    };
    REQUESTS.slice(0, 5).forEach(both);
    expect(httpSeries(await ours.registry.metrics())).toBe(httpSeries(await theirs.registry.metrics()));
    REQUESTS.slice(5).forEach(both);
    const text = httpSeries(await ours.registry.metrics());
    expect(text).toBe(httpSeries(await theirs.registry.metrics()));
    expect(text).toContain(
      'sluice_http_requests_total{method="GET",route="/api/v1/entities/vaults",status="200"} 4',
    );
    const json = async (registry: Registry) =>
      (await registry.getMetricsAsJSON()).filter((metric) => metric.name.startsWith("sluice_http_request"));
    expect(await json(ours.registry)).toEqual(await json(theirs.registry));
  });

  it("keeps the order of /metrics: requests, durations, then the rate-limit rejections", async () => {
    const ours = createHttpMetrics({ collectProcessMetrics: false });
    ours.series.record("GET", "/api/v1/health", 200, 0.001);
    const names = [...(await ours.registry.metrics()).matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]);
    expect(names.slice(0, 3)).toEqual([
      "sluice_http_requests_total",
      "sluice_http_request_duration_seconds",
      "sluice_rate_limit_rejections_total",
    ]);
  });
});

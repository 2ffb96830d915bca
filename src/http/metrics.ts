// Prometheus metrics. One registry per server instance so tests can build many servers in one process.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route" | "status">;
}

export function createHttpMetrics(options: { collectProcessMetrics: boolean }): HttpMetrics {
  const registry = new Registry();
  if (options.collectProcessMetrics) collectDefaultMetrics({ register: registry, prefix: "sluice_" });
  const requests = new Counter({
    name: "sluice_http_requests_total",
    help: "HTTP requests answered, by route template and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "sluice_http_request_duration_seconds",
    help: "HTTP request duration, by route template and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, requests, duration };
}

/**
 * `sluice_solver_in_cooldown{solver}`: 1 while the solver is in cooldown, else 0, read from the stored state at each
 * scrape. Every replica reports the same shared state, so aggregate replicas with max(), never sum() (README
 * "Solver cooldowns"); `max(sluice_solver_in_cooldown) by (solver)` summed gives the solvers in cooldown.
 */
export function registerCooldownGauge(
  metrics: HttpMetrics,
  cooldowns: { solverIds: readonly string[]; isCoolingDown(solverId: string): boolean },
): void {
  new Gauge({
    name: "sluice_solver_in_cooldown",
    help: "1 while the solver is in cooldown (left out of auctions and /liquidity), else 0; aggregate replicas with max()",
    labelNames: ["solver"] as const,
    registers: [metrics.registry],
    collect() {
      for (const solverId of cooldowns.solverIds)
        this.set({ solver: solverId }, cooldowns.isCoolingDown(solverId) ? 1 : 0);
    },
  });
}

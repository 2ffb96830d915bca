// Prometheus metrics. One registry per server instance so tests can build many servers in one process.
// The solver series count what THIS process stored or changed (its answers and wins once their statement succeeded,
// the order status changes it wrote), so summing them over replicas counts each event once.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { SolverActivity } from "../scorecards/activity.ts";
import { answered } from "../scorecards/answer-stats.ts";
import { RequestSeries } from "./request-series.ts";

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  /** Counts every answered request into `requests` and `sluice_http_request_duration_seconds` (request-series.ts). */
  series: RequestSeries;
  /** The solver counters, fed by the swap flow and the order writers of this process. */
  solvers: SolverActivity;
  /**
   * `sluice_rate_limit_rejections_total{class,integrator}`: requests refused by a rate limit, by limit class (`quote`,
   * `read`, `stream`…) and integrator (the API key's name, `anonymous` without one). The limiter increments it.
   */
  rateLimitRejections: Counter<"class" | "integrator">;
  /** `sluice_rpc_errors_total{method,kind}`: JSON-RPC calls that failed, by method and kind (timeout, http, rpc). */
  rpcErrors: Counter<"method" | "kind">;
}

export function createHttpMetrics(options: { collectProcessMetrics: boolean }): HttpMetrics {
  const registry = new Registry();
  if (options.collectProcessMetrics) collectDefaultMetrics({ register: registry, prefix: "sluice_" });
  const requests: Counter<"method" | "route" | "status"> = new Counter({
    name: "sluice_http_requests_total",
    help: "HTTP requests answered, by route template and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect: (): void => series.flush(),
  });
  // Registered here, between the two, so /metrics lists the series in the order it always has.
  const series: RequestSeries = new RequestSeries({
    registry,
    requests,
    name: "sluice_http_request_duration_seconds",
    help: "HTTP request duration, by route template and status",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const rateLimitRejections = new Counter({
    name: "sluice_rate_limit_rejections_total",
    help: "Requests refused by a rate limit (429), by limit class and integrator (anonymous without an API key)",
    labelNames: ["class", "integrator"] as const,
    registers: [registry],
  });
  const rpcErrors = new Counter({
    name: "sluice_rpc_errors_total",
    help: "JSON-RPC calls to the chain that failed, by method and kind: timeout, http (transport), rpc (an error answer)",
    labelNames: ["method", "kind"] as const,
    registers: [registry],
  });
  return { registry, requests, series, solvers: solverMetrics(registry), rateLimitRejections, rpcErrors };
}

function solverMetrics(registry: Registry): SolverActivity {
  const answers = new Counter({
    name: "sluice_solver_answers_total",
    help: "Solver answers stored by this process, by solver, outcome and rejection reason (none unless rejected)",
    labelNames: ["solver", "outcome", "reason"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "sluice_solver_answer_latency_seconds",
    help: "Latency of the answers solvers gave (every outcome but timeout and network), stored by this process",
    labelNames: ["solver"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5],
    registers: [registry],
  });
  const wins = new Counter({
    name: "sluice_solver_wins_total",
    help: "Rounds won (soft: rank 0 of a /quote round; hard: best answer meeting the quote in an /order round)",
    labelNames: ["solver", "round"] as const,
    registers: [registry],
  });
  const orders = new Counter({
    name: "sluice_solver_orders_total",
    help:
      "Order status changes written by this process, by solver: assigned (created), filled, expired; and " +
      "reverted (a reorg took a fill or an expiry back)",
    labelNames: ["solver", "event"] as const,
    registers: [registry],
  });
  return {
    answers(facts, won) {
      for (const fact of facts) {
        answers.inc({ solver: fact.solverId, outcome: fact.outcome, reason: fact.reason ?? "none" });
        if (answered(fact)) latency.observe({ solver: fact.solverId }, fact.latencyMs / 1000);
      }
      for (const win of won) wins.inc({ solver: win.solverId, round: win.kind });
    },
    orderStatus(solverId, from, to) {
      if (from === null) orders.inc({ solver: solverId, event: "assigned" });
      if (to === "filled" || to === "expired") orders.inc({ solver: solverId, event: to });
      if (from === "filled" || from === "expired") orders.inc({ solver: solverId, event: "reverted" });
    },
  };
}

/**
 * `sluice_solver_in_cooldown{solver}`: 1 while the solver is in cooldown, else 0, read from the stored state at each
 * scrape. Every replica reports the same shared state, so aggregate replicas with max(), never sum() (docs/solvers.md
 * "Solver cooldowns"); `max(sluice_solver_in_cooldown) by (solver)` summed gives the solvers in cooldown.
 * `sluice_fade_breaker_floor{solver}`: 1 while every eligible solver is in cooldown and this one is asked anyway
 * (the breaker's floor), else 0; the alert SluiceFadeBreakerFloor fires on it.
 */
export function registerCooldownGauge(
  metrics: HttpMetrics,
  cooldowns: {
    /** Read at each scrape: a devnet's solvers can change while it runs. */
    solverIds(): readonly string[];
    isCoolingDown(solverId: string): boolean;
    keptByFloor(): string | null;
  },
): void {
  new Gauge({
    name: "sluice_solver_in_cooldown",
    help: "1 while the solver is in cooldown (left out of auctions and /liquidity), else 0; aggregate replicas with max()",
    labelNames: ["solver"] as const,
    registers: [metrics.registry],
    collect() {
      // A solver removed since the last scrape leaves the gauge.
      this.reset();
      for (const solverId of cooldowns.solverIds())
        this.set({ solver: solverId }, cooldowns.isCoolingDown(solverId) ? 1 : 0);
    },
  });
  new Gauge({
    name: "sluice_fade_breaker_floor",
    help: "1 while every eligible solver is in cooldown and this one is asked anyway (the fade breaker's floor), else 0",
    labelNames: ["solver"] as const,
    registers: [metrics.registry],
    collect() {
      const kept = cooldowns.keptByFloor();
      this.reset();
      for (const solverId of cooldowns.solverIds()) this.set({ solver: solverId }, solverId === kept ? 1 : 0);
    },
  });
}

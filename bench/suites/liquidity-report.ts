// The liquidity suite's measurements, its target (issue 5: /liquidity-batch with 20 tokens and 8 solvers on a
// warm per-block cache ≥ 0.02 × the bare route's throughput) and its printed report.
import type { BenchDatabaseKind } from "../dataset/store.ts";
import type { LoadResult } from "../lib/load.ts";
import type { ResourceUse } from "../lib/measured-load.ts";
import {
  machineLine,
  type RunConditions,
  ratioColumn,
  routeTable,
  targetsSection,
  type Verdict,
  wholeMs,
} from "../lib/suite-report.ts";
import { formatNumber } from "../lib/table.ts";

export const LIQUIDITY_TARGETS = { batchRatio: 0.02 } as const;

export type LiquidityRouteRole = "bare" | "batch" | "single";

export interface LiquidityRouteMeasurement extends LoadResult, ResourceUse {
  role: LiquidityRouteRole;
  label: string;
  bodyBytes: number;
  ratioToBare?: number;
}

export interface LiquidityDatabaseRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  /** The first batch request (reads every adapter for every token) and the second (cached). */
  coldMs: number;
  warmMs: number;
  solversPerToken: { min: number; max: number };
  /** The chain head before the first request and after the last: equal, or the cache was not warm throughout. */
  head: { before: number; after: number };
  bareRequestsPerSecond: number;
  routes: LiquidityRouteMeasurement[];
  targets: Verdict[];
}

/** One /liquidity-batch on a deployment without `multicall` (the devnet's deployless reads). */
export interface DeploylessCheck {
  kind: BenchDatabaseKind;
  status: number;
  milliseconds: number;
  tokens: number;
  tokensWithLiquidity: number;
}

export interface LiquidityReport extends RunConditions {
  suite: "liquidity";
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  fixture: {
    inputTokens: number;
    solvers: number;
    adapters: Array<{ label: string; asset: string; authorized: number[] }>;
    transactions: number;
    blockNumber: number;
    buildSeconds: number;
  };
  runs: LiquidityDatabaseRun[];
  deployless: DeploylessCheck;
}

export function judgeLiquidityTargets(run: Omit<LiquidityDatabaseRun, "targets">): Verdict[] {
  const batch = run.routes.find((row) => row.role === "batch")!;
  const clean = batch.non2xx === 0 && batch.errors === 0 && batch.total > 0;
  const sameBlock = run.head.before === run.head.after;
  return [
    {
      target: `${batch.label}, 8 solvers, warm per-block cache ≥ ${LIQUIDITY_TARGETS.batchRatio} × bare req/s`,
      measured:
        `${(batch.ratioToBare ?? 0).toFixed(4)} × (${formatNumber(batch.requestsPerSecond)} req/s against ` +
        `${formatNumber(run.bareRequestsPerSecond)}; p99 ${wholeMs(batch.p99Ms)} ms)` +
        (sameBlock ? "" : `; the head moved from ${run.head.before} to ${run.head.after}`),
      pass: clean && sameBlock && (batch.ratioToBare ?? 0) >= LIQUIDITY_TARGETS.batchRatio,
    },
  ];
}

export function formatLiquidityReport(report: LiquidityReport): string {
  const { fixture } = report;
  const adapters = fixture.adapters
    .map((adapter) => `${adapter.label}: solvers ${adapter.authorized.map((s) => s + 1).join(", ")}`)
    .join("; ");
  const lines = [
    `## Liquidity benchmark: POST /liquidity-batch, ${report.startedAt}`,
    "",
    machineLine(report),
    "",
    `Fixture, built for the bench on an anvil **without block time** (${formatNumber(fixture.transactions)} ` +
      `transactions over the core deployment in ${fixture.buildSeconds} s in all; then no block is mined, the head ` +
      `stays at block ${fixture.blockNumber} and the per-block adapter reads stay cached): ${fixture.inputTokens} ` +
      `input tokens (tRWA and 19 more TestERC20s; every 4th reported in tUSDT, the others in tUSD), every adapter ` +
      `redeeming all of them with its own price and limit per token; ${fixture.adapters.length} adapters; ` +
      `${fixture.solvers} solvers with distinct Executors (1–4 internal, 5–8 external), authorized as follows — ` +
      `${adapters}. No discount is published. A Multicall3 is deployed and named in the deployment (\`multicall\`), ` +
      "as on a public network. `sluice serve` runs the deployment file in its own process (request logs at info, to a file).",
    "",
    `Load: autocannon in the bench process, ${report.connections} connections, ${report.durationSeconds} s per ` +
      `route after ${report.warmupSeconds} s of warm-up and one request that fills the per-block cache; ` +
      "/liquidity-batch asks for all 20 tokens with no solver filter. Baseline: bare Fastify `/bare` in a third " +
      "process, measured before and after; ratios divide by the mean.",
    "",
  ];
  for (const run of report.runs) lines.push(...formatRun(run, report), "");
  const check = report.deployless;
  lines.push(
    `Without the Multicall3 (the devnet's way: no \`multicall\` in the deployment, viem's deployless multicall), ` +
      `the same /liquidity-batch on ${check.kind} answered ${check.status} in ${check.milliseconds.toFixed(0)} ms with ` +
      `**${check.tokensWithLiquidity} of ${check.tokens} tokens showing any liquidity**` +
      (check.tokensWithLiquidity < check.tokens
        ? ": adapters whose reads failed are left out of every answer."
        : " (one token's read, 5 adapters × 38 calls, split into deployless eth_calls of at most 64 reads)."),
  );
  return lines.join("\n");
}

function formatRun(run: LiquidityDatabaseRun, report: LiquidityReport): string[] {
  return [
    `### ${run.databaseVersion}`,
    "",
    ...routeTable(run.routes, {
      connections: report.connections,
      ratios: [ratioColumn("× bare", (row) => row.ratioToBare, 4)],
      throughput: false,
    }),
    "",
    `The first /liquidity-batch (cold: every adapter read for every token) took ${run.coldMs.toFixed(0)} ms, the ` +
      `second (warm) ${run.warmMs.toFixed(1)} ms; every token had ${solverRange(run.solversPerToken)} solvers ` +
      `with liquidity. Chain head ${run.head.before} before the first request ` +
      `and ${run.head.after} after the last. Baseline \`/bare\`: ${formatNumber(run.bareRequestsPerSecond)} req/s.`,
    "",
    ...targetsSection(run.kind, run.targets),
  ];
}

function solverRange({ min, max }: { min: number; max: number }): string {
  return min === max ? String(min) : `${min}–${max}`;
}

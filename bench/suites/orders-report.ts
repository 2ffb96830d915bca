// The orders suite's measurements, its targets (issue 4: a solver's open orders ≥ 0.2 × the bare route's
// throughput; the 50-order swapper reported; the filled list streamed with flat memory, MB/s reported) and its
// printed report.
import type { OrdersDatasetFacts } from "../dataset/orders-dataset.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import type { LoadResult } from "../lib/load.ts";
import type { ResourceUse } from "../lib/measured-load.ts";
import { rssAtShare, type StreamedDownload } from "../lib/stream-download.ts";
import {
  machineLine,
  type RunConditions,
  ratioColumn,
  routeTable,
  targetsSection,
  type Verdict,
  wholeMs,
} from "../lib/suite-report.ts";
import { formatBytes, formatNumber } from "../lib/table.ts";
import type { PageDiagnosis, PagePlan } from "./orders-diagnosis.ts";

export const ORDERS_TARGETS = {
  openBySolverRatio: 0.2,
  /**
   * Flat memory: the server's RSS may rise above its level at the start of the download by at most this much
   * (garbage of a few dozen 1,000-order pages awaiting collection). An answer built before it is sent needs the
   * whole body, hundreds of MB here, and a leak grows with the bytes.
   */
  streamedGrowthMb: 64,
} as const;

export type OrdersRouteRole = "bare" | "bare-body" | "open-by-solver" | "swapper" | "filled";

export interface OrdersRouteMeasurement extends LoadResult, ResourceUse {
  role: OrdersRouteRole;
  label: string;
  path: string;
  bodyBytes: number;
  ratioToBare?: number;
  /** Open orders only: req/s divided by plain Fastify answering a byte-identical copy of the body. */
  ratioToSameBytes?: number;
}

export interface OrdersDatabaseRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  dataset: OrdersDatasetFacts;
  scale: number;
  fixtures: { solverId: string; swapper: string };
  serverIdleRssMb: number;
  bareRequestsPerSecond: number;
  sameBytesRequestsPerSecond: number;
  routes: OrdersRouteMeasurement[];
  filled: StreamedDownload & {
    label: string;
    path: string;
    expectedOrders: number;
    budgetSeconds: number;
    serverCpuMs: number;
    databaseCpuMs: number | undefined;
    loadAverage: number;
  };
  diagnosis: PageDiagnosis;
  targets: Verdict[];
}

export interface OrdersReport extends RunConditions {
  suite: "orders";
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  runs: OrdersDatabaseRun[];
}

const DOCUMENT_END = '],"cursor":null}';

export function judgeOrdersTargets(run: Omit<OrdersDatabaseRun, "targets" | "diagnosis">): Verdict[] {
  const route = (role: OrdersRouteRole) => run.routes.find((row) => row.role === role)!;
  const clean = (row: OrdersRouteMeasurement) => row.non2xx === 0 && row.errors === 0 && row.total > 0;
  const open = route("open-by-solver");
  const swapper = route("swapper");
  const { filled } = run;
  const complete =
    filled.complete &&
    filled.status === 200 &&
    filled.markers === filled.expectedOrders &&
    filled.tail.endsWith(DOCUMENT_END);
  const peak = Math.max(...filled.rss.map((sample) => sample.rssMb));
  const growthMb = peak - filled.rss[0]!.rssMb;
  const bodyMb = filled.bytes / 1e6;
  return [
    {
      target: `${open.label} ≥ ${ORDERS_TARGETS.openBySolverRatio} × bare req/s`,
      measured:
        `${(open.ratioToBare ?? 0).toFixed(3)} × (${formatNumber(open.requestsPerSecond)} req/s, p99 ${wholeMs(open.p99Ms)} ms; ` +
        `${(open.ratioToSameBytes ?? 0).toFixed(2)} × plain Fastify sending the same bytes)`,
      pass: clean(open) && (open.ratioToBare ?? 0) >= ORDERS_TARGETS.openBySolverRatio,
    },
    {
      target: `${swapper.label}: reported`,
      measured: `${(swapper.ratioToBare ?? 0).toFixed(3)} × (${formatNumber(swapper.requestsPerSecond)} req/s, p99 ${wholeMs(swapper.p99Ms)} ms)`,
      pass: clean(swapper),
    },
    {
      target: "the whole filled list in one answer, complete",
      measured: filled.complete
        ? `${formatNumber(filled.markers)} of ${formatNumber(filled.expectedOrders)} orders, ${formatBytes(filled.bytes)}, document ${filled.tail.endsWith(DOCUMENT_END) ? "closed" : "NOT closed"}`
        : `gave up after ${filled.budgetSeconds} s with ${formatNumber(filled.markers)} of ${formatNumber(filled.expectedOrders)} orders (${formatBytes(filled.bytes)})`,
      pass: complete,
    },
    {
      target:
        `… streamed with flat memory (server RSS at most ${ORDERS_TARGETS.streamedGrowthMb} MB above its level at ` +
        "the start, whatever the bytes sent), MB/s reported",
      measured:
        `RSS ${filled.rss[0]!.rssMb.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${growthMb.toFixed(0)} MB) while ` +
        `sending ${bodyMb.toFixed(0)} MB${filled.complete ? "" : " (incomplete)"} at ${filled.megabytesPerSecond.toFixed(1)} MB/s`,
      pass: filled.bytes > 0 && growthMb < ORDERS_TARGETS.streamedGrowthMb,
    },
  ];
}

export function formatOrdersReport(report: OrdersReport): string {
  const lines = [
    `## Orders benchmark: GET /orders, ${report.startedAt}`,
    "",
    machineLine(report),
    "",
    `Load: autocannon in the bench process, ${report.connections} connections, ${report.durationSeconds} s per route ` +
      `after ${report.warmupSeconds} s of warm-up, plain GETs without Accept-Encoding. The filled list: one GET read ` +
      "to the end by the bench process, the server's RSS sampled every 100 ms from /proc. Server: `sluice serve` in " +
      "its own process, on a deployment file with six solvers (never asked: nothing here quotes) over a bare anvil " +
      "(no contract, no block time; the orders are bound to its chain before the start); request logs at info, to " +
      "a file. Baselines, in a third process, measured before and after the routes (ratios divide by the means): " +
      "bare Fastify `/bare` (the targets' reference), and plain Fastify answering a byte-identical copy of the " +
      "solver's open orders (`× same bytes`: at 25 KB a body's own cost — sockets, chunking, the load generator " +
      "parsing it on the same cores — is a large part of any server's).",
    "",
  ];
  for (const run of report.runs) lines.push(...formatRun(run, report), "");
  return lines.join("\n");
}

function formatRun(run: OrdersDatabaseRun, report: OrdersReport): string[] {
  const { dataset, filled } = run;
  const statuses = Object.entries(dataset.byStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([status, count]) => `${formatNumber(count)} ${status}`)
    .join(", ");
  const quarter = (share: number) => formatNumber(rssAtShare(filled, share));
  const peak = Math.max(...filled.rss.map((sample) => sample.rssMb));
  const perOrder = (milliseconds: number | undefined) =>
    milliseconds === undefined || filled.markers === 0
      ? "–"
      : formatNumber((milliseconds * 1000) / filled.markers, 1);
  return [
    `### ${run.databaseVersion}`,
    "",
    ...(run.scale < 1
      ? [
          `**Smaller dataset than PostgreSQL's: ${formatNumber(dataset.plan.orders)} orders (scale ${run.scale}); the ` +
            "open orders and the 50-order swapper are the same.**",
          "",
        ]
      : []),
    `Dataset: ${formatNumber(dataset.plan.orders)} orders over ${dataset.plan.historyDays} days (${statuses}); ` +
      `${dataset.plan.solvers} solvers, ${dataset.plan.openPerSolver} open orders each among the newest; ` +
      `${formatNumber(dataset.plan.swapperPool)} swappers plus the fixture swapper \`${run.fixtures.swapper}\` with ` +
      `${dataset.fixtureSwapper.orders} orders spread over the whole history; 10% of orders with a second (fee) ` +
      `output; filled ones with tx hash and settled amounts. Table with indexes: ${formatNumber(dataset.tableMb)} MB. ` +
      `Generated with SQL in ${dataset.generationSeconds} s (reused while its marker matches). Listed solver: ` +
      `\`${run.fixtures.solverId}\`.`,
    "",
    ...routeTable(run.routes, {
      connections: report.connections,
      ratios: [
        ratioColumn("× bare", (row) => row.ratioToBare, 3),
        ratioColumn("× same bytes", (row) => row.ratioToSameBytes, 2),
      ],
      throughput: true,
    }),
    "",
    `Streamed: ${filled.label}: ${filled.complete ? "" : `**incomplete: the ${filled.budgetSeconds} s budget ran out after** `}${formatNumber(filled.markers)} orders, ${formatBytes(filled.bytes)} in ` +
      `${(filled.totalMs / 1000).toFixed(1)} s = **${filled.megabytesPerSecond.toFixed(1)} MB/s** ` +
      `(${formatNumber(filled.markers / (filled.totalMs / 1000))} orders/s), first byte after ` +
      `${filled.firstByteMs.toFixed(0)} ms. Server RSS ${formatNumber(filled.rss[0]!.rssMb)} MB at the start, ` +
      `${quarter(0.25)} / ${quarter(0.5)} / ${quarter(0.75)} / ${quarter(1)} MB at 25 / 50 / 75 / 100% of the bytes, ` +
      `peak ${formatNumber(peak)} MB. CPU per order: server ${perOrder(filled.serverCpuMs)} µs, PostgreSQL ` +
      `${perOrder(filled.databaseCpuMs)} µs. Load average ${filled.loadAverage}.`,
    "",
    diagnosisLine(run.diagnosis),
    "",
    `Baselines: \`/bare\` ${formatNumber(run.bareRequestsPerSecond)} req/s, same bytes as the open orders ` +
      `${formatNumber(run.sameBytesRequestsPerSecond)} req/s (means of the first and last runs). ` +
      `Server RSS idle ${formatNumber(run.serverIdleRssMb)} MB.`,
    "",
    ...targetsSection(run.kind, run.targets),
  ];
}

function planLine(plan: PagePlan): string {
  return `${plan.executionMs.toFixed(1)} ms (${plan.nodes.join(" > ")})`;
}

function diagnosisLine(diagnosis: PageDiagnosis): string {
  const served = `One ${formatNumber(diagnosis.pageSize)}-order page of the filled list as the server queries it: ${planLine(diagnosis.served)}`;
  if (!diagnosis.nullsLast) return `${served}.`;
  return (
    `${served}; with its ORDER BY spelled \`desc nulls last\` like the orders indexes: ` +
    `${planLine(diagnosis.nullsLast)} (EXPLAIN ANALYZE, after the server stopped).`
  );
}

// Pieces every suite's printed report states: the machine and the load other work put on it during the run,
// a targets table, latency cells, and the route table of the suites that load routes with autocannon.
import type { BenchDatabaseKind } from "../dataset/store.ts";
import type { LoadResult } from "./load.ts";
import { type MachineFacts, machineFacts } from "./machine.ts";
import { formatBytes, formatNumber, markdownTable } from "./table.ts";

export interface RunConditions {
  startedAt: string;
  finishedAt: string;
  machine: MachineFacts;
  loadAverage: { start: number; end: number };
}

export function runConditions(startedAt: string, loadAtStart: number, loadAtEnd: number): RunConditions {
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineFacts(),
    loadAverage: { start: loadAtStart, end: loadAtEnd },
  };
}

export function machineLine(conditions: RunConditions): string {
  const { machine, loadAverage } = conditions;
  const busy = Math.max(loadAverage.start, loadAverage.end) > machine.cpus;
  return (
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. ` +
    `Load average (1 min) ${loadAverage.start} at the start and ${loadAverage.end} at the end` +
    (busy
      ? ": other work competed for the cores, so absolute figures are low and noisy; ratios compare runs made side by side."
      : ".")
  );
}

export interface Verdict {
  target: string;
  measured: string;
  pass: boolean;
}

export function targetsTable(verdicts: readonly Verdict[]): string {
  return markdownTable(
    ["target", "measured", "result"],
    verdicts.map((verdict) => [verdict.target, verdict.measured, verdict.pass ? "pass" : "**FAIL**"]),
  );
}

/**
 * A database's targets: the issue states them for PostgreSQL, so they are judged there and shown on PGlite for
 * comparison. `note` goes before the colon (a condition the run did not meet, say).
 */
export function targetsSection(kind: BenchDatabaseKind, verdicts: readonly Verdict[], note = ""): string[] {
  const judged =
    kind === "postgres"
      ? " (the issue's, judged on PostgreSQL)"
      : " (stated for PostgreSQL; shown for comparison)";
  return [`Targets${judged}${note}:`, "", targetsTable(verdicts)];
}

/** Milliseconds with one decimal (closed-loop figures); autocannon's whole milliseconds use `wholeMs`. */
export function ms(value: number): string {
  return Number.isNaN(value) ? "–" : value.toFixed(1);
}

/** autocannon's histogram counts whole milliseconds: 0 means under one. */
export function wholeMs(value: number): string {
  return value === 0 ? "<1" : String(value);
}

/** CPU time per request of the answering process / the database's backends (undefined: not visible) / the load generator. */
export interface CpuPerRequest {
  server: number;
  database: number | undefined;
  client: number;
}

/** The "CPU µs/req srv/db/gen" cell of a route row. */
export function cpuCell(cpu: CpuPerRequest): string {
  return [cpu.server, cpu.database, cpu.client]
    .map((micros) => (micros === undefined ? "–" : formatNumber(micros)))
    .join(" / ");
}

/** The note under every table with a CPU column. */
export const CPU_NOTE =
  "CPU µs/req: CPU time per request of the answering process (server or baseline) / the PostgreSQL backends " +
  "serving it (– on PGlite, which runs inside the server) / the load generator.";

/** A row of a route table: autocannon's figures and what the suite measured around them. */
export interface RouteRow extends LoadResult {
  label: string;
  bodyBytes: number;
  rssPeakMb: number;
  loadAverage: number;
  cpuMicrosPerRequest: CpuPerRequest;
}

/** A column of a route table: its header and how a row's cell reads. */
export interface RouteColumn<Row> {
  header: string;
  cell: (row: Row) => string;
}

/** What differs between the suites' route tables; the rest of the layout is routeTable's. */
export interface RouteTableLayout<Row> {
  /** The run's --connections, or each row's own when routes ran at different counts. */
  connections: number | ((row: Row) => number);
  /** Decimals of req/s (default none). */
  requestsPerSecondDigits?: (requestsPerSecond: number) => number;
  /** The throughput ratios after the latencies, in order (ratioColumn). */
  ratios: ReadonlyArray<RouteColumn<Row>>;
  /** Whether MB/s shows. */
  throughput: boolean;
}

/** A throughput ratio, blank on the rows it does not apply to (the baselines); `digits` suit its range. */
export function ratioColumn<Row>(
  header: string,
  ratio: (row: Row) => number | undefined,
  digits: number,
): RouteColumn<Row> {
  return { header, cell: (row) => ratio(row)?.toFixed(digits) ?? "" };
}

/**
 * A route table as every suite's report has it — route (with its failed answers, if any), conns, req/s, p50 and
 * p99, the suite's ratios, body, MB/s if `throughput`, RSS peak, CPU per request, load average — then the note
 * on its CPU column.
 */
export function routeTable<Row extends RouteRow>(
  rows: readonly Row[],
  layout: RouteTableLayout<Row>,
): string[] {
  const { connections, requestsPerSecondDigits } = layout;
  const columns: Array<RouteColumn<Row>> = [
    {
      header: "route",
      cell: (row) =>
        row.non2xx + row.errors > 0
          ? `${row.label} (${row.non2xx} non-2xx, ${row.errors} errors)`
          : row.label,
    },
    {
      header: "conns",
      cell: (row) => String(typeof connections === "number" ? connections : connections(row)),
    },
    {
      header: "req/s",
      cell: (row) => formatNumber(row.requestsPerSecond, requestsPerSecondDigits?.(row.requestsPerSecond)),
    },
    { header: "p50 ms", cell: (row) => wholeMs(row.p50Ms) },
    { header: "p99 ms", cell: (row) => wholeMs(row.p99Ms) },
    ...layout.ratios,
    { header: "body", cell: (row) => formatBytes(row.bodyBytes) },
    ...(layout.throughput
      ? [{ header: "MB/s", cell: (row: Row) => formatNumber(row.throughputMBps, 1) }]
      : []),
    { header: "RSS peak MB", cell: (row) => formatNumber(row.rssPeakMb) },
    { header: "CPU µs/req srv/db/gen", cell: (row) => cpuCell(row.cpuMicrosPerRequest) },
    { header: "load", cell: (row) => String(row.loadAverage) },
  ];
  const table = markdownTable(
    columns.map((column) => column.header),
    rows.map((row) => columns.map((column) => column.cell(row))),
  );
  return [table, "", CPU_NOTE];
}

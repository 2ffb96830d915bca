// Pieces every suite's printed report states: the machine and the load other work put on it during the run,
// a targets table, and latency cells.
import { type MachineFacts, machineFacts } from "./machine.ts";
import { formatNumber, markdownTable } from "./table.ts";

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

// What a batch of rounds adds to the per-minute and per-hour answer counts, computed where the rounds are (no read of
// the answers back), and the upsert that adds it: one row per key, in key order, so writers on any replica take the
// rows' locks in the same order and cannot deadlock. The round statements (src/swap) run it as one of their CTEs.
import { SOLVER_REJECTIONS, type SolverRejection } from "../solvers/client.ts";
import { addCounts, countOf } from "./latency-buckets.ts";
import type { StatSpan } from "./tables.ts";

/** One stored solver answer, as far as the counts care. */
export interface AnswerFact {
  solverId: string;
  outcome: "quoted" | "declined" | "rejected";
  reason?: string | null;
  latencyMs: number;
  createdAt: Date;
}

/** A round won: a /quote round's rank 0 (soft) or a hard round's best answer meeting the quote (hard). */
export interface WinFact {
  solverId: string;
  kind: "soft" | "hard";
  at: Date;
}

export interface AnswerStatsRow {
  span: StatSpan;
  bucketStart: string;
  solverId: string;
  offered: number;
  quoted: number;
  declined: number;
  rejected: Record<SolverRejection, number>;
  softWins: number;
  hardWins: number;
  latencyCounts: number[];
}

/** The length of each span's buckets. */
export const SPAN_MS: Record<StatSpan, number> = { hour: 3_600_000, minute: 60_000 };

/** The start (UTC) of the span holding `at`. */
export function bucketStartOf(span: StatSpan, at: Date): Date {
  return new Date(Math.floor(at.getTime() / SPAN_MS[span]) * SPAN_MS[span]);
}

/** Whether the solver answered at all (a timeout or a network failure has no answer latency). */
export function answered(answer: Pick<AnswerFact, "reason">): boolean {
  return answer.reason !== "timeout" && answer.reason !== "network";
}

/** The rows to add, one per (span, bucket, solver), sorted by that key. */
export function answerStatsRows(answers: readonly AnswerFact[], wins: readonly WinFact[]): AnswerStatsRow[] {
  const rows = new Map<string, AnswerStatsRow>();
  const rowsOf = (solverId: string, at: Date) =>
    (["hour", "minute"] as const).map((span) => {
      const bucketStart = bucketStartOf(span, at).toISOString();
      const key = `${span}|${bucketStart}|${solverId}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          span,
          bucketStart,
          solverId,
          offered: 0,
          quoted: 0,
          declined: 0,
          rejected: Object.fromEntries(SOLVER_REJECTIONS.map((r) => [r, 0])) as Record<
            SolverRejection,
            number
          >,
          softWins: 0,
          hardWins: 0,
          latencyCounts: [],
        };
        rows.set(key, row);
      }
      return row;
    });
  for (const answer of answers) {
    for (const row of rowsOf(answer.solverId, answer.createdAt)) {
      row.offered++;
      if (answer.outcome === "quoted") row.quoted++;
      else if (answer.outcome === "declined") row.declined++;
      else if (answer.reason && answer.reason in row.rejected)
        row.rejected[answer.reason as SolverRejection]++;
      if (answered(answer)) addCounts(row.latencyCounts, countOf(answer.latencyMs));
    }
  }
  for (const win of wins) {
    for (const row of rowsOf(win.solverId, win.at)) {
      if (win.kind === "soft") row.softWins++;
      else row.hardWins++;
    }
  }
  return [...rows.values()].sort(compareKeys);
}

function compareKeys(a: AnswerStatsRow, b: AnswerStatsRow): number {
  return (
    a.span.localeCompare(b.span) ||
    a.bucketStart.localeCompare(b.bucketStart) ||
    (a.solverId < b.solverId ? -1 : a.solverId > b.solverId ? 1 : 0)
  );
}

const COUNT_COLUMNS = [
  "offered",
  "quoted",
  "declined",
  ...SOLVER_REJECTIONS.map((reason) => `rejected_${reason}`),
  "soft_wins",
  "hard_wins",
];

/** The rows as the upsert's JSON parameter (snake_case columns). */
export function answerStatsJson(rows: readonly AnswerStatsRow[]): string {
  return JSON.stringify(
    rows.map((row) => ({
      span: row.span,
      bucket_start: row.bucketStart,
      solver_id: row.solverId,
      offered: row.offered,
      quoted: row.quoted,
      declined: row.declined,
      ...Object.fromEntries(SOLVER_REJECTIONS.map((reason) => [`rejected_${reason}`, row.rejected[reason]])),
      soft_wins: row.softWins,
      hard_wins: row.hardWins,
      latency_counts: row.latencyCounts,
    })),
  );
}

/**
 * Adds the rows of JSON parameter `param` to solver_answer_stats. The rows come sorted and the select keeps that order
 * (the ORDER BY), so locks are taken in key order whatever plan the database picks.
 */
export function upsertAnswerStatsSql(param: string): string {
  const columns = ["span", "bucket_start", "solver_id", ...COUNT_COLUMNS, "latency_counts"];
  const definitions = [
    "span text",
    "bucket_start timestamptz",
    "solver_id text",
    ...COUNT_COLUMNS.map((column) => `${column} bigint`),
    "latency_counts bigint[]",
  ];
  const updates = [
    ...COUNT_COLUMNS.map((column) => `${column} = s.${column} + excluded.${column}`),
    "latency_counts = solver_stats_add_counts(s.latency_counts, excluded.latency_counts)",
  ];
  return `insert into solver_answer_stats as s (${columns.join(", ")})
  select ${columns.map((column) => `r.${column}`).join(", ")}
  from jsonb_to_recordset(${param}::jsonb) as r(${definitions.join(", ")})
  order by r.span, r.bucket_start, r.solver_id
  on conflict (span, bucket_start, solver_id) do update set ${updates.join(", ")}`;
}

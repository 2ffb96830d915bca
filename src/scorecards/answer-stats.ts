// What a batch of rounds adds to the per-minute and per-hour answer counts, computed from the facts the round writers
// pass (no read of the answers back), and appended by this module's statement in the writer's transaction
// (Database.writeTogether) as ONE row of solver_answer_stats_pending: every
// round touches the same few aggregate rows (each of its solvers' minute and hour), so upserting them there made
// every writer on every replica wait for the last one's commit, and the upsert of a dozen wide rows cost a round
// statement about half again its time. The fold moves pending rows into solver_answer_stats every second, in key
// order (one statement: the rows it deletes are the rows it adds), and reads add what is still pending, so the counts
// are exact whenever they are read and stored together with the answers or not at all.
import type { WriteStatement } from "../db/client.ts";
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

/**
 * What a statement adds to one solver's counts in one minute, and so in that minute's hour: an element of a
 * solver_answer_stats_pending row. Short keys: a round write holds one per solver.
 */
export interface AnswerStatsDelta {
  /** The minute's start (ISO 8601, UTC). */
  m: string;
  /** The start of the hour holding that minute. */
  h: string;
  /** The solver's id. */
  s: string;
  /** The counts, in ANSWER_COUNT_COLUMNS' order. */
  c: number[];
  /** The answer-latency histogram (latency-buckets.ts), trailing zeros left out. */
  l: number[];
}

/** solver_answer_stats's count columns, in the order of AnswerStatsDelta's `c`. */
export const ANSWER_COUNT_COLUMNS = [
  "offered",
  "quoted",
  "declined",
  ...SOLVER_REJECTIONS.map((reason) => `rejected_${reason}` as const),
  "soft_wins",
  "hard_wins",
] as const;
type AnswerCountColumn = (typeof ANSWER_COUNT_COLUMNS)[number];
const COUNT_INDEX = Object.fromEntries(
  ANSWER_COUNT_COLUMNS.map((column, index) => [column, index]),
) as Record<AnswerCountColumn, number>;

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

/** What the answers and wins add, one delta per (minute, solver), sorted by that key. */
export function answerStatsDeltas(
  answers: readonly AnswerFact[],
  wins: readonly WinFact[],
): AnswerStatsDelta[] {
  const deltas = new Map<string, AnswerStatsDelta>();
  const deltaOf = (solverId: string, at: Date) => {
    const minute = bucketStartOf("minute", at).toISOString();
    const key = `${minute}|${solverId}`;
    let delta = deltas.get(key);
    if (!delta) {
      delta = {
        m: minute,
        h: bucketStartOf("hour", at).toISOString(),
        s: solverId,
        c: new Array<number>(ANSWER_COUNT_COLUMNS.length).fill(0),
        l: [],
      };
      deltas.set(key, delta);
    }
    return delta;
  };
  const add = (delta: AnswerStatsDelta, column: AnswerCountColumn) => {
    delta.c[COUNT_INDEX[column]]!++;
  };
  for (const answer of answers) {
    const delta = deltaOf(answer.solverId, answer.createdAt);
    add(delta, "offered");
    if (answer.outcome === "quoted") add(delta, "quoted");
    else if (answer.outcome === "declined") add(delta, "declined");
    else if (isRejection(answer.reason)) add(delta, `rejected_${answer.reason}`);
    if (answered(answer)) addCounts(delta.l, countOf(answer.latencyMs));
  }
  for (const win of wins) add(deltaOf(win.solverId, win.at), win.kind === "soft" ? "soft_wins" : "hard_wins");
  return [...deltas.values()].sort((a, b) => compareText(a.m, b.m) || compareText(a.s, b.s));
}

function isRejection(reason: string | null | undefined): reason is SolverRejection {
  return (SOLVER_REJECTIONS as readonly (string | null | undefined)[]).includes(reason);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The pending row's columns of one delta as the fold and the reads expand it. */
const DELTA_RECORD = "d(m timestamptz, h timestamptz, s text, c bigint[], l bigint[])";

const APPEND_ANSWER_STATS_SQL = "insert into solver_answer_stats_pending (stats) values ($1::json)";

/**
 * What the answers and wins add to the scorecards, as the statement appending them (one pending row), for the writer
 * of the answers to run in its transaction; none when they add nothing.
 */
export function answerStatsWrites(
  answers: readonly AnswerFact[],
  wins: readonly WinFact[],
): WriteStatement[] {
  if (answers.length === 0 && wins.length === 0) return [];
  const deltas = answerStatsDeltas(answers, wins);
  return [
    { text: APPEND_ANSWER_STATS_SQL, params: [JSON.stringify(deltas)], name: "sluice_append_answer_stats" },
  ];
}

/**
 * Moves up to $1 pending rows (the oldest first) into solver_answer_stats: one statement, so the rows it deletes are
 * exactly the rows it adds. Rows another replica's fold holds are skipped (it folds them), so no row is counted
 * twice. The sums are upserted in key order (span, bucket, solver: each solver's hour rows before its minute rows),
 * like every writer of the table, so folds cannot deadlock. Answers how many pending rows it took.
 */
export const FOLD_ANSWER_STATS_SQL = `
with taken as (
  delete from solver_answer_stats_pending
  where id in (select id from solver_answer_stats_pending order by id limit $1 for update skip locked)
  returning stats
), summed as (
  select k.span, k.bucket_start, d.s as solver_id,
    ${ANSWER_COUNT_COLUMNS.map((column, index) => `coalesce(sum(d.c[${index + 1}]), 0) as ${column}`).join(",\n    ")},
    solver_stats_sum(d.l) as latency_counts
  from taken
    cross join lateral json_to_recordset(taken.stats) as ${DELTA_RECORD}
    cross join lateral (values ('hour', d.h), ('minute', d.m)) as k(span, bucket_start)
  group by k.span, k.bucket_start, d.s
), folded as (
  insert into solver_answer_stats as s (span, bucket_start, solver_id, ${ANSWER_COUNT_COLUMNS.join(", ")}, latency_counts)
  select span, bucket_start, solver_id, ${ANSWER_COUNT_COLUMNS.join(", ")}, latency_counts
  from summed
  order by span, bucket_start, solver_id
  on conflict (span, bucket_start, solver_id) do update set
    ${ANSWER_COUNT_COLUMNS.map((column) => `${column} = s.${column} + excluded.${column}`).join(",\n    ")},
    latency_counts = solver_stats_add_counts(s.latency_counts, excluded.latency_counts)
)
select count(*) as taken from taken`;

/**
 * One span's rows from `$2` on: the aggregate's, then each pending delta as a row of its own (a key may appear more
 * than once; readers sum by solver). One statement, so one snapshot: a fold running meanwhile is seen whole or not.
 */
export const READ_ANSWER_STATS_SQL = `
select span, bucket_start, solver_id, ${ANSWER_COUNT_COLUMNS.join(", ")}, latency_counts
from solver_answer_stats
where span = $1::text and bucket_start >= $2::timestamptz
union all
select $1::text, b.bucket_start, d.s, ${ANSWER_COUNT_COLUMNS.map((_, index) => `d.c[${index + 1}]`).join(", ")}, d.l
from solver_answer_stats_pending as p
  cross join lateral json_to_recordset(p.stats) as ${DELTA_RECORD}
  cross join lateral (select case when $1::text = 'minute' then d.m else d.h end as bucket_start) as b
where b.bucket_start >= $2::timestamptz`;

// Storage of the scorecards: per solver, per minute and per hour, counts kept up to date as answers and orders are
// written (the round writes' pending rows, folded in every second, and the order writers' transitions, counted by
// order-stats.ts; migrations 0008, 0011 and 0018), so a scorecard over an hour, a day or a week reads at most a few hundred rows instead of scanning answers or
// orders. Keys sort (span, bucket_start, solver_id) — the primary key — and every writer upserts in that order, so
// concurrent writers cannot deadlock.
import { sql } from "drizzle-orm";
import { bigint, check, json, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const STAT_SPANS = ["hour", "minute"] as const;
export type StatSpan = (typeof STAT_SPANS)[number];

const count = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);
/** A latency histogram over latency-buckets.ts's buckets, trailing zeros left out. */
const histogram = (name: string) =>
  bigint(name, { mode: "number" }).array().notNull().default(sql`'{}'::bigint[]`);

/** Every solver answer of every round (the /quote round and each /order hard round), counted. */
export const solverAnswerStats = pgTable(
  "solver_answer_stats",
  {
    span: text("span", { enum: STAT_SPANS }).notNull(),
    /** The start of the minute or hour (UTC) the answers were given in. */
    bucketStart: timestamp("bucket_start", { withTimezone: true }).notNull(),
    solverId: text("solver_id").notNull(),
    offered: count("offered"),
    quoted: count("quoted"),
    declined: count("declined"),
    rejectedTimeout: count("rejected_timeout"),
    rejectedHttpStatus: count("rejected_http_status"),
    rejectedInvalidBody: count("rejected_invalid_body"),
    rejectedEchoMismatch: count("rejected_echo_mismatch"),
    rejectedWrongFiller: count("rejected_wrong_filler"),
    rejectedZeroAmount: count("rejected_zero_amount"),
    rejectedNetwork: count("rejected_network"),
    /** Rank 0 of a /quote round. */
    softWins: count("soft_wins"),
    /** The best answer meeting the quoted total in a hard round. */
    hardWins: count("hard_wins"),
    /** Latencies of the answers the solver gave (every outcome but timeout and network). */
    latencyCounts: histogram("latency_counts"),
  },
  (table) => [
    primaryKey({ columns: [table.span, table.bucketStart, table.solverId] }),
    check("solver_answer_stats_span_check", sql`${table.span} in ('hour','minute')`),
  ],
);

/**
 * What round writes added to solver_answer_stats and the fold has not yet moved there (migration 0011): one row
 * per statement, appended, so writers share no row (see answer-stats.ts). Reads add these rows to the aggregate's.
 */
export const solverAnswerStatsPending = pgTable("solver_answer_stats_pending", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  /** answer-stats.ts's AnswerStatsDelta[] as JSON text (`json`: stored as written, not re-encoded). */
  stats: json("stats").notNull(),
});

/** Orders by the minute and hour they were accepted in, by the solver they were assigned to, as they stand now. */
export const solverOrderStats = pgTable(
  "solver_order_stats",
  {
    span: text("span", { enum: STAT_SPANS }).notNull(),
    /** The start of the minute or hour (UTC) the orders were accepted in. */
    bucketStart: timestamp("bucket_start", { withTimezone: true }).notNull(),
    solverId: text("solver_id").notNull(),
    assigned: count("assigned"),
    filled: count("filled"),
    /** Assigned but expired unfilled. */
    expired: count("expired"),
    /** Σ price improvement bps over the filled orders counted in `improvementCount`. */
    improvementBpsSum: numeric("improvement_bps_sum", { precision: 78, scale: 0 }).notNull().default("0"),
    improvementCount: count("improvement_count"),
    /** Order accepted → its fill block's time. */
    fillLatencyCounts: histogram("fill_latency_counts"),
  },
  (table) => [
    primaryKey({ columns: [table.span, table.bucketStart, table.solverId] }),
    check("solver_order_stats_span_check", sql`${table.span} in ('hour','minute')`),
  ],
);

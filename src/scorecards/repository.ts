// Reads of the scorecard tables: the rows of one span from a bucket on, by primary-key range (span, bucket_start);
// answer counts with what is still pending fold (answer-stats.ts).
import { and, eq, gte } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type ANSWER_COUNT_COLUMNS, READ_ANSWER_STATS_SQL } from "./answer-stats.ts";
import { type StatSpan, type solverAnswerStats, solverOrderStats } from "./tables.ts";

export type AnswerStatsRecord = typeof solverAnswerStats.$inferSelect;
export type OrderStatsRecord = typeof solverOrderStats.$inferSelect;

type AnswerStatsSqlRow = { span: StatSpan; bucket_start: Date | string; solver_id: string } & Record<
  (typeof ANSWER_COUNT_COLUMNS)[number],
  string | number
> & { latency_counts: Array<string | number> };

export class ScorecardRepository {
  constructor(private readonly database: Database) {}

  /** The span's answer counts from `from` on; a key may come more than once (a pending delta), to be summed. */
  async answerStats(span: StatSpan, from: Date): Promise<AnswerStatsRecord[]> {
    const rows = await this.database.query<AnswerStatsSqlRow>(
      READ_ANSWER_STATS_SQL,
      [span, from.toISOString()],
      {
        name: "sluice_read_answer_stats",
      },
    );
    return rows.map((row) => ({
      span: row.span,
      bucketStart: new Date(row.bucket_start),
      solverId: row.solver_id,
      offered: Number(row.offered),
      quoted: Number(row.quoted),
      declined: Number(row.declined),
      rejectedTimeout: Number(row.rejected_timeout),
      rejectedHttpStatus: Number(row.rejected_http_status),
      rejectedInvalidBody: Number(row.rejected_invalid_body),
      rejectedEchoMismatch: Number(row.rejected_echo_mismatch),
      rejectedWrongFiller: Number(row.rejected_wrong_filler),
      rejectedZeroAmount: Number(row.rejected_zero_amount),
      rejectedNetwork: Number(row.rejected_network),
      softWins: Number(row.soft_wins),
      hardWins: Number(row.hard_wins),
      latencyCounts: row.latency_counts.map(Number),
    }));
  }

  async orderStats(span: StatSpan, from: Date): Promise<OrderStatsRecord[]> {
    return this.database.db
      .select()
      .from(solverOrderStats)
      .where(and(eq(solverOrderStats.span, span), gte(solverOrderStats.bucketStart, from)));
  }
}

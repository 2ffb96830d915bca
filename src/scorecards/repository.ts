// Reads of the scorecard tables: the rows of one span from a bucket on, by primary-key range (span, bucket_start).
import { and, eq, gte } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type StatSpan, solverAnswerStats, solverOrderStats } from "./tables.ts";

export type AnswerStatsRecord = typeof solverAnswerStats.$inferSelect;
export type OrderStatsRecord = typeof solverOrderStats.$inferSelect;

export class ScorecardRepository {
  constructor(private readonly database: Database) {}

  async answerStats(span: StatSpan, from: Date): Promise<AnswerStatsRecord[]> {
    return this.database.db
      .select()
      .from(solverAnswerStats)
      .where(and(eq(solverAnswerStats.span, span), gte(solverAnswerStats.bucketStart, from)));
  }

  async orderStats(span: StatSpan, from: Date): Promise<OrderStatsRecord[]> {
    return this.database.db
      .select()
      .from(solverOrderStats)
      .where(and(eq(solverOrderStats.span, span), gte(solverOrderStats.bucketStart, from)));
  }
}

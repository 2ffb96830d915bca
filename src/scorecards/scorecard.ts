// A solver's scorecard over the last hour, day and week, summed from the per-minute and per-hour rows. The hour is
// the current minute and the 59 before it (minute rows), the day and the week the current hour and the 23 or 167
// before it (hour rows): each window covers between its length less one bucket and its length.
import { SOLVER_REJECTIONS, type SolverRejection } from "../solvers/client.ts";
import { bucketStartOf, SPAN_MS } from "./answer-stats.ts";
import { addCounts, percentile } from "./latency-buckets.ts";
import type { AnswerStatsRecord, OrderStatsRecord } from "./repository.ts";
import type { StatSpan } from "./tables.ts";

export const SCORECARD_WINDOWS = ["hour", "day", "week"] as const;
export type ScorecardWindowName = (typeof SCORECARD_WINDOWS)[number];

/** Each window's bucket span and how many buckets it sums. */
export const WINDOW_BUCKETS: Record<ScorecardWindowName, { span: StatSpan; buckets: number }> = {
  hour: { span: "minute", buckets: 60 },
  day: { span: "hour", buckets: 24 },
  week: { span: "hour", buckets: 168 },
};

/** The start of a window's oldest bucket, for a window ending at `now`. */
export function windowStart(window: ScorecardWindowName, now: Date): Date {
  const { span, buckets } = WINDOW_BUCKETS[window];
  return new Date(bucketStartOf(span, now).getTime() - (buckets - 1) * SPAN_MS[span]);
}

export interface ScorecardWindow {
  /** The start of the window's oldest bucket (ISO 8601). */
  from: string;
  auctions: {
    offered: number;
    quoted: number;
    declined: number;
    rejected: Record<SolverRejection, number>;
  };
  answerLatencyMs: { p50: number | null; p99: number | null };
  wins: { soft: number; hard: number };
  orders: { assigned: number; filled: number; expired: number };
  fillLatencyMs: { p50: number | null; p99: number | null };
  priceImprovement: { averageBps: number | null; filledOrders: number };
}

export type Scorecard = Record<ScorecardWindowName, ScorecardWindow>;

/** Running sums of one solver in one window. */
class Tally {
  offered = 0;
  quoted = 0;
  declined = 0;
  rejected = Object.fromEntries(SOLVER_REJECTIONS.map((r) => [r, 0])) as Record<SolverRejection, number>;
  softWins = 0;
  hardWins = 0;
  latency: number[] = [];
  assigned = 0;
  filled = 0;
  expired = 0;
  bpsSum = 0n;
  bpsCount = 0;
  fillLatency: number[] = [];

  addAnswers(row: AnswerStatsRecord): void {
    this.offered += row.offered;
    this.quoted += row.quoted;
    this.declined += row.declined;
    this.rejected.timeout += row.rejectedTimeout;
    this.rejected.http_status += row.rejectedHttpStatus;
    this.rejected.invalid_body += row.rejectedInvalidBody;
    this.rejected.echo_mismatch += row.rejectedEchoMismatch;
    this.rejected.wrong_filler += row.rejectedWrongFiller;
    this.rejected.zero_amount += row.rejectedZeroAmount;
    this.rejected.network += row.rejectedNetwork;
    this.softWins += row.softWins;
    this.hardWins += row.hardWins;
    addCounts(this.latency, row.latencyCounts);
  }

  addOrders(row: OrderStatsRecord): void {
    this.assigned += row.assigned;
    this.filled += row.filled;
    this.expired += row.expired;
    this.bpsSum += BigInt(row.improvementBpsSum);
    this.bpsCount += row.improvementCount;
    addCounts(this.fillLatency, row.fillLatencyCounts);
  }

  window(from: Date): ScorecardWindow {
    return {
      from: from.toISOString(),
      auctions: {
        offered: this.offered,
        quoted: this.quoted,
        declined: this.declined,
        rejected: { ...this.rejected },
      },
      answerLatencyMs: { p50: percentile(this.latency, 0.5), p99: percentile(this.latency, 0.99) },
      wins: { soft: this.softWins, hard: this.hardWins },
      orders: { assigned: this.assigned, filled: this.filled, expired: this.expired },
      fillLatencyMs: { p50: percentile(this.fillLatency, 0.5), p99: percentile(this.fillLatency, 0.99) },
      priceImprovement: {
        averageBps: this.bpsCount > 0 ? averageBps(this.bpsSum, this.bpsCount) : null,
        filledOrders: this.bpsCount,
      },
    };
  }
}

/** Σ bps / n to two decimals (the sum is exact: a numeric in the database, a bigint here). */
function averageBps(sum: bigint, count: number): number {
  return Number((sum * 100n) / BigInt(count)) / 100;
}

/** The rows a scorecard needs: minute rows from the hour window's start, hour rows from the week's. */
export interface ScorecardRows {
  minuteAnswers: readonly AnswerStatsRecord[];
  minuteOrders: readonly OrderStatsRecord[];
  hourAnswers: readonly AnswerStatsRecord[];
  hourOrders: readonly OrderStatsRecord[];
}

/** Every listed solver's scorecard at `now` (solvers without rows get zeros). */
export function scorecards(
  rows: ScorecardRows,
  solverIds: readonly string[],
  now: Date,
): Map<string, Scorecard> {
  const starts = Object.fromEntries(SCORECARD_WINDOWS.map((w) => [w, windowStart(w, now)])) as Record<
    ScorecardWindowName,
    Date
  >;
  const tallies = new Map(
    solverIds.map((id) => [id, { hour: new Tally(), day: new Tally(), week: new Tally() }] as const),
  );
  const inWindow = (window: ScorecardWindowName, bucketStart: Date) =>
    bucketStart.getTime() >= starts[window].getTime();
  for (const row of rows.minuteAnswers) {
    if (inWindow("hour", row.bucketStart)) tallies.get(row.solverId)?.hour.addAnswers(row);
  }
  for (const row of rows.minuteOrders) {
    if (inWindow("hour", row.bucketStart)) tallies.get(row.solverId)?.hour.addOrders(row);
  }
  for (const row of rows.hourAnswers) {
    const tally = tallies.get(row.solverId);
    if (tally && inWindow("week", row.bucketStart)) tally.week.addAnswers(row);
    if (tally && inWindow("day", row.bucketStart)) tally.day.addAnswers(row);
  }
  for (const row of rows.hourOrders) {
    const tally = tallies.get(row.solverId);
    if (tally && inWindow("week", row.bucketStart)) tally.week.addOrders(row);
    if (tally && inWindow("day", row.bucketStart)) tally.day.addOrders(row);
  }
  return new Map(
    [...tallies].map(([id, tally]) => [
      id,
      {
        hour: tally.hour.window(starts.hour),
        day: tally.day.window(starts.day),
        week: tally.week.window(starts.week),
      },
    ]),
  );
}

// The scorecards' order counts (solver_order_stats): what each order's transition adds, or takes back, in the minute
// and the hour the order was accepted in, written by this module's statement inside the transaction of the code that
// wrote the order (POST /order's insert, the indexer's status changes and their reorg rewinds). The writer passes the
// facts (src/orders/transitions.ts; this module takes them by shape and imports nothing of orders), so a rewind that
// takes a fill back passes the fill's own fields and takes back exactly what the fill added.
import { sql } from "drizzle-orm";
import type { DbTransaction } from "../db/client.ts";

/** An order's status and the fields that change with it, as a transition left or found them. */
export interface CountedOrderState {
  status: string;
  filledAt: Date | null;
  fillBlockNumber: bigint | null;
  updatedAt: Date;
}

/** An order created (`before` null) or changed from one status to another. */
export interface CountedTransition {
  solverId: string;
  createdAt: Date;
  quotedAmountOut: string;
  committedAmountOut: string;
  before: CountedOrderState | null;
  after: CountedOrderState;
}

/** One side of a transition as the statement counts it: `sign` 1 adds the state, -1 takes it back. */
export interface OrderStatsRow {
  solver_id: string;
  created_at: string;
  sign: 1 | -1;
  /** 1 for an order's creation: it is assigned to its solver once. */
  assigned: 0 | 1;
  status: string;
  quoted: string;
  committed: string;
  filled_at: string | null;
  fill_block_number: string | null;
  updated_at: string;
}

/** The statuses with counts of their own (besides `assigned`). */
const COUNTED_STATUSES: ReadonlySet<string> = new Set(["filled", "expired"]);

/** What the transitions change, as rows for the statement: none for a transition between uncounted statuses. */
export function orderStatsRows(transitions: readonly CountedTransition[]): OrderStatsRow[] {
  const rows: OrderStatsRow[] = [];
  const side = (transition: CountedTransition, state: CountedOrderState, sign: 1 | -1, assigned: 0 | 1) => {
    if (assigned === 0 && !COUNTED_STATUSES.has(state.status)) return;
    rows.push({
      solver_id: transition.solverId,
      created_at: transition.createdAt.toISOString(),
      sign,
      assigned,
      status: state.status,
      quoted: transition.quotedAmountOut,
      committed: transition.committedAmountOut,
      filled_at: state.filledAt?.toISOString() ?? null,
      fill_block_number: state.fillBlockNumber?.toString() ?? null,
      updated_at: state.updatedAt.toISOString(),
    });
  };
  for (const transition of transitions) {
    if (transition.before === null) side(transition, transition.after, 1, 1);
    else if (transition.before.status !== transition.after.status) {
      side(transition, transition.before, -1, 0);
      side(transition, transition.after, 1, 0);
    }
  }
  return rows;
}

/**
 * Adds the rows to the counts in one statement, summed per (span, bucket, solver) and upserted in that key order like
 * every writer of the table, so concurrent writers cannot deadlock. A fill's latency and improvement are computed as
 * migration 0008's backfill computes them (solver_fill_latency_bucket, order_price_improvement_bps).
 */
function recordStatement(rows: readonly OrderStatsRow[]) {
  return sql`with d as (
  select t.solver_id, t.created_at, t.sign, t.sign * t.assigned as assigned,
    case when t.status = 'filled' then t.sign else 0 end as filled,
    case when t.status = 'expired' then t.sign else 0 end as expired,
    case when t.status = 'filled' then order_price_improvement_bps(t.quoted, t.committed) end as bps,
    case when t.status = 'filled'
      then solver_fill_latency_bucket(t.created_at, t.filled_at, t.fill_block_number, t.updated_at) end as latency
  from json_to_recordset(${JSON.stringify(rows)}::json) as t(solver_id text, created_at timestamptz, sign integer,
    assigned integer, status text, quoted numeric, committed numeric, filled_at timestamptz, fill_block_number bigint,
    updated_at timestamptz)
)
insert into solver_order_stats as s (span, bucket_start, solver_id, assigned, filled, expired, improvement_bps_sum,
  improvement_count, fill_latency_counts)
select p.span, date_trunc(p.span, d.created_at, 'UTC'), d.solver_id, sum(d.assigned), sum(d.filled), sum(d.expired),
  coalesce(sum(d.sign * d.bps), 0), sum(case when d.bps is not null then d.sign else 0 end),
  solver_stats_counts(array_agg(d.latency) filter (where d.latency is not null),
    array_agg(d.sign::bigint) filter (where d.latency is not null))
from d cross join (values ('hour'), ('minute')) as p(span)
group by 1, 2, 3
order by 1, 2, 3
on conflict (span, bucket_start, solver_id) do update set
  assigned = s.assigned + excluded.assigned,
  filled = s.filled + excluded.filled,
  expired = s.expired + excluded.expired,
  improvement_bps_sum = s.improvement_bps_sum + excluded.improvement_bps_sum,
  improvement_count = s.improvement_count + excluded.improvement_count,
  fill_latency_counts = solver_stats_add_counts(s.fill_latency_counts, excluded.fill_latency_counts)`;
}

/** The order writers' observer (src/orders/transitions.ts's OrderTransitionObserver): counts what they pass. */
export class OrderStats {
  async transitioned(tx: DbTransaction, transitions: readonly CountedTransition[]): Promise<void> {
    const rows = orderStatsRows(transitions);
    if (rows.length > 0) await tx.execute(recordStatement(rows));
  }
}

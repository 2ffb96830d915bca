// Reads of the order stream's durable log (order_events, written by a trigger on orders: tables.ts): the changes
// after an id, as order records in the shape GET /orders answers; the log's bounds; and the pruning of old changes.
import type { Database, RawQuery } from "../db/client.ts";
import { filterClause, type OrderListRow, RECORD_TIME } from "./page-query.ts";
import type { OrdersQuery } from "./schemas.ts";

/** Changes read per query. */
export const LOG_PAGE_SIZE = 1000;

/** One change of one order: the order record as it was right after the change, and the change's id. */
export interface LoggedChange {
  id: bigint;
  row: LoggedOrderRow;
}

/** The record's columns (execution fields included: a solver's view adds them to open orders) and what routes it. */
export interface LoggedOrderRow extends OrderListRow {
  solver_id: string;
  filler: string;
}

export interface LogBounds {
  /** The newest id this read can see (ids commit in order, so every id below it is visible too). */
  lastId: bigint;
  /** Changes up to this id may be gone (pruned, or dropped by a chain reset): no resume from below it. */
  prunedThrough: bigint;
}

/** The changes after `after`, oldest first, at most `limit`; with `filter`, only those of the orders it selects. */
export async function readChangesAfter(
  query: RawQuery,
  after: bigint,
  limit: number,
  filter?: OrdersQuery,
): Promise<LoggedChange[]> {
  const { where, params } = filter ? filterClause(filter) : { where: [], params: [] };
  params.push(after.toString(), limit);
  const selected =
    where.length > 0 ? `and e.order_id in (select order_id from orders where ${where.join(" and ")})` : "";
  const rows = await query<LoggedOrderRow & { event_id: string }>(
    `select e.id::text as event_id, o.order_id, o.order_hash, e.status, o.quote_id, o.quote_request_id,
        o.request_id, o.swapper, e.tx_hash, o.nonce, o.token_in, o.amount_in, o.outputs, e.settled_amounts,
        o.token_out, o.quoted_amount_out::text as quoted_amount_out,
        o.committed_amount_out::text as committed_amount_out, e.fill_block_number::text as fill_block_number,
        e.finalized,
        to_char(o.created_at at time zone 'UTC', ${RECORD_TIME}) as created_at_iso,
        to_char(e.updated_at at time zone 'UTC', ${RECORD_TIME}) as updated_at_iso,
        o.solver_id, o.filler, o.encoded_order, o.protocol_signature, o.deadline, '' as sort_value
      from order_events e join orders o on o.order_id = e.order_id
      where e.id > $${params.length - 1}::bigint ${selected}
      order by e.id
      limit $${params.length}`,
    params,
  );
  return rows.map(({ event_id, ...row }) => ({ id: BigInt(event_id), row }));
}

export async function readLogBounds(query: RawQuery): Promise<LogBounds> {
  // The newest visible id, not the sequence's last value: that one may belong to a commit this read cannot see yet.
  const rows = await query<{ last_id: string; pruned_through: string }>(
    `select greatest(pruned_through, coalesce((select max(id) from order_events), 0))::text as last_id,
        pruned_through::text as pruned_through
      from order_event_clock where id = 1`,
  );
  const row = rows[0];
  if (!row) throw new Error("order_event_clock has no row: the database is not migrated");
  return { lastId: BigInt(row.last_id), prunedThrough: BigInt(row.pruned_through) };
}

/** Deletes the changes recorded before `before`; a stream can then resume only from the newest id deleted on. */
export async function pruneChanges(database: Database, before: Date): Promise<number> {
  const rows = await database.query<{ deleted: string }>(
    `with deleted as (delete from order_events where recorded_at < $1 returning id),
          bumped as (
            update order_event_clock
               set pruned_through = greatest(pruned_through, (select max(id) from deleted))
             where id = 1 and exists (select 1 from deleted)
          )
     select count(*)::text as deleted from deleted`,
    [before.toISOString()],
  );
  return Number(rows[0]?.deleted ?? 0);
}

/** Database.query as a RawQuery (outside a transaction). */
export function queryOf(database: Database): RawQuery {
  return (text, params) => database.query(text, params);
}

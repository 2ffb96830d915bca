// Open orders whose deadline has passed but that the indexer has not expired yet. A few seconds of it are normal (the
// expiry waits for a block past the deadline, and its confirmations); minutes of it mean the indexer stopped deciding
// orders, and solvers keep trying to fill orders that can no longer be filled. The overdue-orders gauges read it.
import type { Database } from "../db/client.ts";

export interface OverdueOrders {
  count: number;
  /** The earliest deadline among them (unix seconds); null when there are none. */
  oldestDeadline: number | null;
}

export async function readOverdueOrders(database: Database, nowSeconds: number): Promise<OverdueOrders> {
  const [row] = await database.query<{ count: number | string; oldest: number | string | null }>(
    "select count(*)::int as count, min(deadline) as oldest from orders " +
      "where status in ('open', 'insufficient-funds') and deadline < $1",
    [nowSeconds],
    { name: "sluice_overdue_orders" },
  );
  return {
    count: Number(row?.count ?? 0),
    oldestDeadline: row?.oldest == null ? null : Number(row.oldest),
  };
}

// Minute rows serve only the last hour's window; past MINUTE_ROWS_KEPT_MS nothing reads them, so they are deleted
// (hour rows, 24 per solver per day, are kept); the delete is a primary-key range.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { PeriodicPrune } from "../db/periodic-prune.ts";
import type { Logger } from "../logger.ts";

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Two hours: the hour window plus a margin for clocks that disagree. */
export const MINUTE_ROWS_KEPT_MS = 2 * 3600 * 1000;

export class ScorecardRetention extends PeriodicPrune {
  constructor(database: Database, clock: Clock, logger: Logger) {
    super({
      intervalMs: PRUNE_INTERVAL_MS,
      prune: () => pruneMinuteRows(database, new Date(clock.now().getTime() - MINUTE_ROWS_KEPT_MS)),
      logger,
      what: "scorecard minute rows no window reads any more",
    });
  }
}

/** Deletes both aggregates' minute rows older than `before`; resolves with how many went. */
async function pruneMinuteRows(database: Database, before: Date): Promise<number> {
  let deleted = 0;
  for (const table of ["solver_answer_stats", "solver_order_stats"]) {
    const rows = await database.query<{ n: string | number }>(
      `with gone as (delete from ${table} where span = 'minute' and bucket_start < $1 returning 1)
       select count(*) as n from gone`,
      [before.toISOString()],
    );
    deleted += Number(rows[0]?.n ?? 0);
  }
  return deleted;
}

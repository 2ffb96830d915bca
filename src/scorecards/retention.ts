// Minute rows serve only the last hour's window; past MINUTE_ROWS_KEPT_MS nothing reads them, so they are deleted
// (hour rows, 24 per solver per day, are kept). Every replica prunes (the delete is idempotent, and cheap when there
// is nothing to drop: a primary-key range), so none has to be chosen for it.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Two hours: the hour window plus a margin for clocks that disagree. */
export const MINUTE_ROWS_KEPT_MS = 2 * 3600 * 1000;

export class ScorecardRetention {
  #timer: NodeJS.Timeout | undefined;
  #pruning: Promise<number> | undefined;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.#timer.unref();
    void this.prune();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#pruning;
  }

  /** Deletes the minute rows older than MINUTE_ROWS_KEPT_MS; resolves with how many went. */
  prune(): Promise<number> {
    this.#pruning ??= this.#prune().finally(() => {
      this.#pruning = undefined;
    });
    return this.#pruning;
  }

  async #prune(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - MINUTE_ROWS_KEPT_MS);
    try {
      let deleted = 0;
      for (const table of ["solver_answer_stats", "solver_order_stats"]) {
        const rows = await this.database.query<{ n: string | number }>(
          `with gone as (delete from ${table} where span = 'minute' and bucket_start < $1 returning 1)
           select count(*) as n from gone`,
          [before.toISOString()],
        );
        deleted += Number(rows[0]?.n ?? 0);
      }
      if (deleted > 0) this.logger.info({ deleted }, "pruned scorecard minute rows no window reads any more");
      return deleted;
    } catch (error) {
      this.logger.warn(
        { err: error },
        "pruning the scorecard minute rows failed; retrying at the next interval",
      );
      return 0;
    }
  }
}

// Moves what round writes appended to solver_answer_stats_pending into solver_answer_stats (answer-stats.ts says
// why they append). Every replica folds every FOLD_INTERVAL_MS: a fold skips the pending rows another replica's fold
// holds, so several at once neither wait nor count a row twice, and a replica that stops leaves its rows to the others
// (or to its next start). Reads add what is pending, so how often this runs changes how many rows reads add, not
// what they count.

import type { Database } from "../db/client.ts";
import { PeriodicJob } from "../db/periodic-job.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import { FOLD_ANSWER_STATS_SQL } from "./answer-stats.ts";

export const FOLD_INTERVAL_MS = 1000;
/** Pending rows per fold statement (each holds one statement's deltas: a few per solver). */
const FOLD_BATCH = 500;

export class AnswerStatsFold {
  readonly #job: PeriodicJob<number>;
  #failing = false;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    intervalMs = FOLD_INTERVAL_MS,
  ) {
    this.#job = new PeriodicJob(intervalMs, () => this.#foldAll());
  }

  start(): void {
    this.#job.start();
  }

  stop(): Promise<void> {
    return this.#job.stop();
  }

  /** Folds everything pending now (or joins the fold running); resolves with how many pending rows it took. */
  fold(): Promise<number> {
    return this.#job.run();
  }

  async #foldAll(): Promise<number> {
    let taken = 0;
    try {
      for (;;) {
        const rows = await this.database.query<{ taken: string | number }>(
          FOLD_ANSWER_STATS_SQL,
          [FOLD_BATCH],
          {
            name: "sluice_fold_answer_stats",
          },
        );
        const n = Number(rows[0]?.taken ?? 0);
        taken += n;
        if (n < FOLD_BATCH) break;
      }
      if (this.#failing) this.logger.info("folding scorecard answer counts works again");
      this.#failing = false;
    } catch (error) {
      // Pending rows wait (reads count them meanwhile); one warning per outage, not one per second.
      if (!this.#failing)
        this.logger[failureLevel(error, "warn")](
          { err: error },
          "folding scorecard answer counts failed; retrying every second",
        );
      this.#failing = true;
    }
    return taken;
  }
}

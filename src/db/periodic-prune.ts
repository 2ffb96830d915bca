// A delete of rows nobody reads any more, run at start and then every interval on every replica: the delete is
// idempotent and cheap when there is nothing to drop, so no replica has to be chosen for it. One run at a time; a
// failed run (the database out of reach) is logged and tried again at the next interval.

import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import { PeriodicJob } from "./periodic-job.ts";

export interface PeriodicPruneOptions {
  intervalMs: number;
  /** Deletes what has aged out; resolves with how many rows went. */
  prune: () => Promise<number>;
  logger: Logger;
  /** What is pruned, for the log lines ("order changes older than the stream retention"). */
  what: string;
}

export class PeriodicPrune {
  readonly #job: PeriodicJob<number>;

  constructor(private readonly options: PeriodicPruneOptions) {
    this.#job = new PeriodicJob(options.intervalMs, () => this.#prune());
  }

  start(): void {
    this.#job.start();
  }

  stop(): Promise<void> {
    return this.#job.stop();
  }

  /** Runs a prune now (or joins the one running); resolves with how many rows went (0 after a failure). */
  prune(): Promise<number> {
    return this.#job.run();
  }

  async #prune(): Promise<number> {
    const { logger, what } = this.options;
    try {
      const deleted = await this.options.prune();
      if (deleted > 0) logger.info({ deleted }, `pruned ${what}`);
      return deleted;
    } catch (error) {
      logger[failureLevel(error, "warn")](
        { err: error },
        `pruning ${what} failed; retrying at the next interval`,
      );
      return 0;
    }
  }
}

// The order log keeps changes for the retention window (STREAM_RETENTION_HOURS), then drops them: a stream can
// resume from any id of the window, and an older one gets the snapshot again. Every replica prunes (the delete is
// idempotent, and cheap when there is nothing to drop), so none has to be chosen for it.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { pruneChanges } from "./event-log.ts";

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

export class OrderEventRetention {
  #timer: NodeJS.Timeout | undefined;
  #pruning: Promise<number> | undefined;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly retentionMs: number,
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

  prune(): Promise<number> {
    this.#pruning ??= this.#prune().finally(() => {
      this.#pruning = undefined;
    });
    return this.#pruning;
  }

  async #prune(): Promise<number> {
    try {
      const deleted = await pruneChanges(
        this.database,
        new Date(this.clock.now().getTime() - this.retentionMs),
      );
      if (deleted > 0) this.logger.info({ deleted }, "pruned order changes older than the stream retention");
      return deleted;
    } catch (error) {
      this.logger.warn({ err: error }, "pruning the order log failed; retrying at the next interval");
      return 0;
    }
  }
}

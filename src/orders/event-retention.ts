// The order log keeps changes for the retention window (STREAM_RETENTION_HOURS), then drops them: a stream can
// resume from any id of the window, and an older one gets the snapshot again.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { PeriodicPrune } from "../db/periodic-prune.ts";
import type { Logger } from "../logger.ts";
import { pruneChanges } from "./event-log.ts";

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

export class OrderEventRetention extends PeriodicPrune {
  constructor(database: Database, clock: Clock, logger: Logger, retentionMs: number) {
    super({
      intervalMs: PRUNE_INTERVAL_MS,
      prune: () => pruneChanges(database, new Date(clock.now().getTime() - retentionMs)),
      logger,
      what: "order changes older than the stream retention",
    });
  }
}

// SIGTERM and SIGINT stop a serving process: the Sluice stops (src/app/sluice.ts) and the process exits, within the
// one bound of a shutdown (src/app/shutdown.ts).
import type { Logger } from "../logger.ts";

/** What a signal stops: a Sluice, or anything else with the same stop. */
export interface Stoppable {
  stop(): Promise<void>;
}

export interface ExitOnSignalsOptions {
  /** A shutdown still running this long after it was requested is abandoned: logged, and exit 1. */
  deadlineMs?: number;
  exit?: (code: number) => void;
  signals?: Pick<NodeJS.EventEmitter, "once">;
}

/**
 * Turns SIGTERM/SIGINT into a graceful shutdown and exit 0 (exit 1 if shutdown itself fails, or outlives
 * `deadlineMs`: a database that stopped answering must not keep a stopping process alive). Takes the Sluice as a
 * promise so the handlers can be installed before it starts: a signal during start-up waits for it, then stops it.
 * Returns the same shutdown for other reasons to stop the process (an orphaned server); only the first request counts.
 */
export function exitOnSignals(
  service: Stoppable | Promise<Stoppable>,
  logger: Logger,
  options: ExitOnSignalsOptions = {},
): (reason: string) => void {
  const { deadlineMs, exit = (code) => process.exit(code), signals = process } = options;
  let requested = false;
  const stop = (why: { signal: NodeJS.Signals } | { reason: string }) => {
    if (requested) return;
    requested = true;
    logger.info(why, "shutdown requested");
    if (deadlineMs !== undefined) {
      setTimeout(() => {
        logger.error({ deadlineMs }, "shutdown did not finish in time: exiting");
        exit(1);
      }, deadlineMs).unref();
    }
    Promise.resolve(service)
      .then((started) => started.stop())
      .then(
        () => exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          exit(1);
        },
      );
  };
  signals.once("SIGTERM", (signal: NodeJS.Signals) => stop({ signal }));
  signals.once("SIGINT", (signal: NodeJS.Signals) => stop({ signal }));
  return (reason) => stop({ reason });
}

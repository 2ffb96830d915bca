// How a serving command ends: SIGTERM or SIGINT (to its PID or its process group) shuts it down and exits 0; and a
// server that npm started stops the same way when npm has gone (src/process/orphan.ts).
import { shutdownBoundMs } from "../app/shutdown.ts";
import type { Env } from "../config/env.ts";
import type { Logger } from "../logger.ts";
import { startedByNpm, watchParent } from "../process/orphan.ts";
import { exitOnSignals, type Stoppable } from "./signals.ts";

export function stopOnSignalsOrOrphaning(started: Promise<Stoppable>, env: Env, logger: Logger): void {
  const stop = exitOnSignals(started, logger, { deadlineMs: shutdownBoundMs(env) });
  if (!startedByNpm()) return;
  watchParent({
    onOrphaned: (parentPid) => {
      logger.warn({ parentPid }, "the npm process that started this server has exited: stopping");
      stop("orphaned");
    },
  });
}

// What runs in the background of a Sluice between start() and stop(): started in order, stopped in reverse.
import type { Logger } from "../logger.ts";

export interface Worker {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** Stops each worker in turn, last started first; a failing stop is logged and the others still stop. */
export async function stopInReverse(
  workers: ReadonlyArray<Pick<Worker, "name" | "stop">>,
  logger: Logger,
): Promise<void> {
  for (const worker of [...workers].reverse()) {
    try {
      await worker.stop();
    } catch (error) {
      logger.error({ err: error, worker: worker.name }, "worker stop failed");
    }
  }
}

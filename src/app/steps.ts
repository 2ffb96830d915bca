// What starts and stops in a Sluice (src/app/sluice.ts holds the one ordered list): started in order, stopped in
// reverse.
import type { Logger } from "../logger.ts";

export interface Step {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** Stops each step in turn, last started first; a failing stop is logged and the others still stop. */
export async function stopInReverse(
  steps: ReadonlyArray<Pick<Step, "name" | "stop">>,
  logger: Logger,
): Promise<void> {
  for (const step of [...steps].reverse()) {
    try {
      await step.stop();
    } catch (error) {
      logger.error({ err: error, step: step.name }, "stop failed");
    }
  }
}

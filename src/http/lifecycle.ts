// Shutdown state shared by the health and readiness probes and the signal handler.
import type { ReadinessCheck } from "../readiness/checks.ts";

export class Lifecycle {
  #draining = false;
  readonly #listeners: Array<() => void> = [];

  get draining(): boolean {
    return this.#draining;
  }

  /** Marks the service as draining; `/health` answers 503 from now on. Idempotent. */
  startDraining(): void {
    if (this.#draining) return;
    this.#draining = true;
    for (const listener of this.#listeners) listener();
  }

  onDrain(listener: () => void): void {
    this.#listeners.push(listener);
  }
}

/** The readiness check that fails once shutdown starts: a draining replica takes no new traffic. */
export function servingCheck(lifecycle: Lifecycle): ReadinessCheck {
  return {
    name: "serving",
    async run() {
      return lifecycle.draining
        ? { ok: false, message: "draining: shutdown has started" }
        : { ok: true, message: "serving" };
    },
  };
}

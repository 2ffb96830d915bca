// Shutdown state shared by the health probe and the signal handler.

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

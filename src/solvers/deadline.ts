// When an auction round stops waiting for its solvers. The round's one timer closes it and the requests still open
// are ended there and then: no AbortSignal per request, whose listener bookkeeping cost more CPU than the request's
// own setup on every /quote.

/** A request waiting on the deadline: `end` runs once if the deadline passes before it is forgotten. */
export interface DeadlineWaiter {
  end(): void;
}

export class SolverDeadline {
  #closed = false;
  readonly #waiters = new Set<DeadlineWaiter>();

  /** A deadline closed by its own timer after `ms`; the timer does not keep the process alive. */
  static after(ms: number): SolverDeadline {
    const deadline = new SolverDeadline();
    setTimeout(() => deadline.close(), ms).unref();
    return deadline;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Ends `waiter` when the deadline passes (at once if it has); `forget` it once it no longer waits. */
  wait(waiter: DeadlineWaiter): void {
    if (this.#closed) waiter.end();
    else this.#waiters.add(waiter);
  }

  forget(waiter: DeadlineWaiter): void {
    this.#waiters.delete(waiter);
  }

  /** Stops waiting: every request still open is ended. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiter of this.#waiters) waiter.end();
    this.#waiters.clear();
  }
}

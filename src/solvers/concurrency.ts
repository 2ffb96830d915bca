// How many quote requests each solver has in flight on this replica, against its cap (`maxConcurrentRequests` in the
// deployment file). A solver at its cap is left out of a round rather than sent one more request: it is not asked,
// so it neither answers nor fails, and nothing (a flood of /quote, its own slowness under that flood) can count the
// held-back request against it.
import { DEFAULT_MAX_CONCURRENT_REQUESTS } from "../deployment/schema.ts";
import type { Solver } from "./directory.ts";

export class SolverConcurrency {
  readonly #inFlight = new Map<string, number>();

  /** Takes one of `solver`'s slots and answers its release (call it once), or undefined when all are taken. */
  tryAcquire(solver: Pick<Solver, "id" | "maxConcurrentRequests">): (() => void) | undefined {
    const taken = this.#inFlight.get(solver.id) ?? 0;
    if (taken >= (solver.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS)) return undefined;
    this.#inFlight.set(solver.id, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(solver.id) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(solver.id, left);
      else this.#inFlight.delete(solver.id);
    };
  }

  /** Requests in flight to `solverId` now. */
  inFlight(solverId: string): number {
    return this.#inFlight.get(solverId) ?? 0;
  }
}

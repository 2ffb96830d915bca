// How an auction round can fail for every caller of it (/quote and the /order hard round).
import { BaseError } from "../shared/errors.ts";

/**
 * A round (a /quote round or an /order hard round) that found no answer while solvers that could have given one were
 * left out by their concurrency cap (every slot taken, or this client's share of them): nobody declined, so the
 * client retries (after `retryAfterSeconds`: every request in flight ends within the solver timeout), it does not
 * re-quote.
 */
export class SolversBusyError extends BaseError {
  override name = "SolversBusyError";
  readonly retryAfterSeconds: number;
  constructor(facts: { solversAsked: number; solversBusy: number; solverTimeoutMs: number }) {
    const retryAfterSeconds = Math.max(1, Math.ceil(facts.solverTimeoutMs / 1000));
    super("The solvers that could answer are busy; retry shortly", {
      details: { solversAsked: facts.solversAsked, solversBusy: facts.solversBusy, retryAfterSeconds },
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

// Named failures of the scorecard routes.
import { BaseError } from "../shared/errors.ts";

/** GET /solvers/{id} for an id that is not a configured solver of the deployment. */
export class SolverNotFoundError extends BaseError {
  override name = "SolverNotFoundError";
  constructor(solverId: string) {
    super(`No configured solver has the id ${solverId}`, { details: { solverId } });
  }
}

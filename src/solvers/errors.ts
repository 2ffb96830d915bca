// Named failures about solvers as Sluice serves them.
import { BaseError } from "../shared/errors.ts";

/** A solver logo file name that is not one of the bundled, content-addressed logos. */
export class UnknownSolverLogoError extends BaseError {
  override name = "UnknownSolverLogoError";
  constructor() {
    super("Unknown solver logo");
  }
}

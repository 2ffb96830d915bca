// Named failures about solvers as Sluice serves them.
import { BaseError } from "../shared/errors.ts";

/** A solver logo file name that is not one of the bundled, content-addressed logos. */
export class UnknownSolverLogoError extends BaseError {
  override name = "UnknownSolverLogoError";
  constructor() {
    super("Unknown solver logo");
  }
}

/** A solver whose id, or whose filler, another configured solver already has (or whose id is reserved). */
export class SolverConflictError extends BaseError {
  override name = "SolverConflictError";
  constructor(
    readonly field: "id" | "filler",
    readonly value: string,
    readonly solverId: string,
  ) {
    super(
      field === "id"
        ? `Solver id ${value} is taken or reserved`
        : `Filler ${value} is already solver ${solverId}'s`,
      { details: { field, value, solverId } },
    );
  }
}

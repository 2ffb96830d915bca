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

/** An id that is no configured solver. */
export class UnknownSolverError extends BaseError {
  override name = "UnknownSolverError";
  constructor(readonly solverId: string) {
    super(`No solver ${solverId}`, { details: { solverId } });
  }
}

/** A solver of the deployment itself, which only its deployment file can remove. */
export class SolverNotAddedError extends BaseError {
  override name = "SolverNotAddedError";
  constructor(readonly solverId: string) {
    super(`Solver ${solverId} is part of the deployment; only solvers added while running can be removed`, {
      details: { solverId, reason: "configured" },
    });
  }
}

// Who a solver is (its id and its own shared secret: the order stream asks it), and who may use the internal
// discount API: an enabled internal solver, identified by its id and its own shared
// secret. Missing or wrong credentials are a SolverAuthenticationError; a real solver that is external or disabled a
// SolverForbiddenError.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Solver, SolverDirectory } from "../solvers/directory.ts";
import { SolverAuthenticationError, SolverForbiddenError } from "./errors.ts";
import { SOLVER_ID_HEADER, SOLVER_SECRET_HEADER } from "./schemas.ts";

/** Compared as SHA-256 digests: equal length, constant time, whatever the inputs' lengths. */
function secretsEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function authenticateInternalSolver(
  solvers: Pick<SolverDirectory, "byId">,
  headers: Record<string, string | string[] | undefined>,
): Solver {
  const solver = authenticateSolver(solvers, headers);
  if (!solver.internal) throw new SolverForbiddenError(solver.id, "external_solver");
  if (!solver.enabled) throw new SolverForbiddenError(solver.id, "disabled_solver");
  return solver;
}

/** The configured solver whose id and own shared secret the headers carry (internal or external, enabled or not). */
export function authenticateSolver(
  solvers: Pick<SolverDirectory, "byId">,
  headers: Record<string, string | string[] | undefined>,
): Solver {
  const id = headers[SOLVER_ID_HEADER];
  const secret = headers[SOLVER_SECRET_HEADER];
  if (typeof id !== "string" || typeof secret !== "string" || secret.length === 0) {
    throw new SolverAuthenticationError();
  }
  const solver = solvers.byId(id);
  if (!solver?.sharedSecret || !secretsEqual(secret, solver.sharedSecret))
    throw new SolverAuthenticationError();
  return solver;
}

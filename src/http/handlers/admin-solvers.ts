// The admin routes that change a running server's solvers, on the internal listener (never documented); each needs
// this run's admin token (src/admin/token.ts), whatever INTERNAL_API_AUTH says:
//
//   GET  /api-internal/v1/admin/solvers               → 200 {solvers: [{id, name, endpoint, filler, …, added}]}
//   POST /api-internal/v1/admin/solvers {id, name, endpoint, filler}
//                                                     → 200 the added solver with its fresh sharedSecret
//                                                       409 VALIDATION_FAILED: the id or the filler is taken
//   POST /api-internal/v1/admin/solvers/{id}/remove   → 200 the removed solver; 404 SOLVER_NOT_FOUND;
//                                                       409 VALIDATION_FAILED: a solver of the deployment itself
//
// 401 UNAUTHORIZED without the token. `sluice devnet add-solver` is their client (src/cli/devnet-solvers.ts).
import type { FastifyRequest } from "fastify";
import { AdminAuthenticationError } from "../../admin/errors.ts";
import type { AdminGuard } from "../../admin/token.ts";
import { SolverConflictError, SolverNotAddedError, UnknownSolverError } from "../../solvers/errors.ts";
import type { SolverRegistry } from "../../solvers/registry.ts";
import {
  AddedSolverResponseSchema,
  ListedSolversResponseSchema,
  RemovedSolverResponseSchema,
  SolverIdParamsSchema,
  SolverRegistrationSchema,
} from "../../solvers/registry-schemas.ts";
import type { Handler } from "../route.ts";
import type { AdminKeyServices } from "./admin-keys.ts";

/** What the admin routes work on: the solver routes are served where a solver store is (the devnet). */
export interface AdminServices {
  guard: AdminGuard;
  solvers?: SolverRegistry;
  keys: AdminKeyServices;
}

/** Run before the body is read: without the token nothing about the request is looked at. */
export function adminOnly(guard: AdminGuard) {
  return async (request: FastifyRequest) => {
    guard.check(request.headers);
  };
}

export const listSolversSchema = {
  summary: "Every configured solver, and which were added while running",
  response: { 200: ListedSolversResponseSchema },
  errors: [AdminAuthenticationError],
};

export function listSolvers(admin: { solvers: SolverRegistry }): Handler<typeof listSolversSchema> {
  return async () => ({ solvers: admin.solvers.list() });
}

export const addSolverSchema = {
  summary: "Add an external solver from the next auction on, with a fresh shared secret",
  body: SolverRegistrationSchema,
  response: { 200: AddedSolverResponseSchema },
  errors: [AdminAuthenticationError, SolverConflictError],
};

export function addSolver(admin: { solvers: SolverRegistry }): Handler<typeof addSolverSchema> {
  return async (request) => admin.solvers.add(request.body);
}

export const removeSolverSchema = {
  summary: "Remove a solver added while running: no auction after this asks it",
  params: SolverIdParamsSchema,
  response: { 200: RemovedSolverResponseSchema },
  errors: [AdminAuthenticationError, UnknownSolverError, SolverNotAddedError],
};

export function removeSolver(admin: { solvers: SolverRegistry }): Handler<typeof removeSolverSchema> {
  return async (request) => {
    const { id, name, endpoint, filler } = await admin.solvers.remove(request.params.id);
    return { id, name, endpoint, filler, removed: true as const };
  };
}

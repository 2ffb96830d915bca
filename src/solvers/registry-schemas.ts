// Wire formats of the admin routes that change a running server's solvers (src/solvers/registry.ts), under
// /api-internal/v1/admin on the internal listener; never in the public document.
import { z } from "zod";
import { SolverConfigSchema } from "../deployment/schema.ts";
import { AddressSchema, TimestampSchema } from "../shared/wire.ts";

/** What `POST /admin/solvers` takes: the deployment file's fields for a solver, those an added one has. */
export const SolverRegistrationSchema = SolverConfigSchema.pick({
  id: true,
  name: true,
  endpoint: true,
  filler: true,
}).strict();

export const AddedSolverResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  filler: AddressSchema,
  /** Sluice sends it in `x-rfq-shared-secret` with every quote request; the solver's order stream asks it too. */
  sharedSecret: z.string(),
  addedAt: TimestampSchema,
});

export const RemovedSolverResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  filler: AddressSchema,
  removed: z.literal(true),
});

export const ListedSolversResponseSchema = z.object({
  solvers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      endpoint: z.string(),
      filler: AddressSchema,
      internal: z.boolean(),
      enabled: z.boolean(),
      added: z.boolean(),
    }),
  ),
});

export const SolverIdParamsSchema = z.object({ id: z.string().min(1) });

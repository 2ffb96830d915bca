// The registry endpoints' bodies, serialized once per dataset generation and served as ready JSON text:
// a registry changes only on import, so per-request work is a cache lookup.
import type { z } from "zod";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { GenerationCache } from "../db/generations.ts";
import { readApprovedVaults, readCurators, readNetworks, readOperators } from "./repository.ts";
import {
  type PartnerCurator,
  PartnerCuratorListSchema,
  type PartnerEntity,
  PartnerEntityListSchema,
  type PartnerVault,
  PartnerVaultListSchema,
} from "./schemas.ts";

/** JSON text serialized from a value of type `T`. */
export type JsonText<T> = string & { readonly __serializedFrom: T };

/** Validates against the wire schema (a bad row fails here, not in a client) and serializes. */
export function toJsonText<Schema extends z.ZodType>(
  schema: Schema,
  value: z.input<Schema>,
): JsonText<z.output<Schema>> {
  return JSON.stringify(schema.parse(value)) as JsonText<z.output<Schema>>;
}

/**
 * Passes pre-serialized JSON to `reply.send` under the route's response type. Fastify writes a string
 * payload with a JSON content type as it is, without running the route's serializer, so the cached text
 * goes out byte for byte while the zod response schema still documents the route.
 */
export function preSerialized<T>(json: JsonText<T>): T {
  return json as unknown as T;
}

export class RegistryResponses {
  readonly networks: GenerationCache<JsonText<PartnerEntity[]>>;
  readonly operators: GenerationCache<JsonText<PartnerEntity[]>>;
  readonly vaults: GenerationCache<JsonText<PartnerVault[]>>;
  readonly curators: GenerationCache<JsonText<PartnerCurator[]>>;

  constructor(database: Database, clock: Clock) {
    const cache = <T>(build: () => Promise<JsonText<T>>) =>
      new GenerationCache(database, "registry", build, clock);
    this.networks = cache(async () => toJsonText(PartnerEntityListSchema, await readNetworks(database)));
    this.operators = cache(async () => toJsonText(PartnerEntityListSchema, await readOperators(database)));
    this.vaults = cache(async () => toJsonText(PartnerVaultListSchema, await readApprovedVaults(database)));
    this.curators = cache(async () => toJsonText(PartnerCuratorListSchema, await readCurators(database)));
  }
}

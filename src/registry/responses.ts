// The registry endpoints' bodies, prepared once per dataset generation: a registry changes only on import,
// so a request costs a cache lookup and a write of ready bytes.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { GenerationCache } from "../db/generations.ts";
import { PreparedJson } from "./prepared-json.ts";
import { readApprovedVaults, readCurators, readNetworks, readOperators } from "./repository.ts";
import {
  type PartnerCurator,
  PartnerCuratorListSchema,
  type PartnerEntity,
  PartnerEntityListSchema,
  type PartnerVault,
  PartnerVaultListSchema,
} from "./schemas.ts";

export class RegistryResponses {
  readonly networks: GenerationCache<PreparedJson<PartnerEntity[]>>;
  readonly operators: GenerationCache<PreparedJson<PartnerEntity[]>>;
  readonly vaults: GenerationCache<PreparedJson<PartnerVault[]>>;
  readonly curators: GenerationCache<PreparedJson<PartnerCurator[]>>;

  constructor(database: Database, clock: Clock) {
    const cache = <T>(build: () => Promise<PreparedJson<T>>) =>
      new GenerationCache(database, "registry", build, clock);
    this.networks = cache(async () => PreparedJson.of(PartnerEntityListSchema, await readNetworks(database)));
    this.operators = cache(async () =>
      PreparedJson.of(PartnerEntityListSchema, await readOperators(database)),
    );
    this.vaults = cache(async () =>
      PreparedJson.of(PartnerVaultListSchema, await readApprovedVaults(database)),
    );
    this.curators = cache(async () =>
      PreparedJson.of(PartnerCuratorListSchema, await readCurators(database)),
    );
  }

  /** After a write in this process has committed: every answer that starts afterwards sees it. */
  invalidate(): void {
    for (const cache of [this.networks, this.operators, this.vaults, this.curators]) cache.invalidate();
  }
}

// Assembles the discount side of one deployment: the store, the live-discount legs the swap flow offers, the
// POST /discount service, the internal solvers' API and the expiry worker.
import type { Address, LocalAccount } from "viem";
import type { BlockSource } from "../chain/blocks.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { Logger } from "../logger.ts";
import { DiscountChainReads } from "./chain-reads.ts";
import { DiscountExpiryWorker } from "./expiry-worker.ts";
import { LiveDiscounts } from "./live.ts";
import { DiscountRepository } from "./repository.ts";
import { DiscountService } from "./service.ts";
import { SolverDiscounts } from "./solver-discounts.ts";

export interface DiscountRuntimeOptions {
  deployment: Deployment;
  publicClient: ChainPublicClient;
  blocks: BlockSource;
  inventory: InventoryReader;
  database: Database;
  protocolSigner: Pick<LocalAccount, "address" | "signTypedData">;
  clock: Clock;
  logger: Logger;
  /** How often the expiry worker looks for a new block (default 1000 ms). */
  pollIntervalMs?: number;
}

export interface DiscountRuntime {
  repository: DiscountRepository;
  live: LiveDiscounts;
  service: DiscountService;
  solverDiscounts: SolverDiscounts;
  worker: DiscountExpiryWorker;
}

export function createDiscountRuntime(options: DiscountRuntimeOptions): DiscountRuntime {
  const { deployment, publicClient, inventory, logger } = options;
  const repository = new DiscountRepository(options.database, { clock: options.clock });
  const reads = new DiscountChainReads(
    publicClient,
    deployment.multicall ? { multicallAddress: deployment.multicall } : {},
  );
  const protocolSigner = deployment.protocolSigner as Address;
  const live = new LiveDiscounts({ repository, reads, protocolSigner, logger });
  return {
    repository,
    live,
    service: new DiscountService({
      deployment,
      client: publicClient,
      reads,
      repository,
      clock: options.clock,
    }),
    solverDiscounts: new SolverDiscounts({
      deployment,
      repository,
      live,
      inventory,
      protocolSigner: options.protocolSigner,
    }),
    worker: new DiscountExpiryWorker({
      repository,
      live,
      inventory,
      blocks: options.blocks,
      deployment,
      logger: logger.child({ worker: "discount-expiry" }),
      pollIntervalMs: options.pollIntervalMs ?? 1000,
    }),
  };
}

// What the swap flow's services need, injected: the deployment, solvers, inventory, chain reads, the protocol key,
// storage and time. Tests build it around a private anvil and local solver servers.
import type { Address, LocalAccount } from "viem";
import type { SwapChain } from "../chain/swap-chain.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { InventorySnapshot } from "../inventory/adapter-state.ts";
import type { DiscountOffer } from "../inventory/offer.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { Logger } from "../logger.ts";
import type { SolverDirectory } from "../solvers/directory.ts";

/** Live discounts usable as legs at a snapshot (validated against that block's chain state). */
export interface DiscountOffers {
  offers(snapshot: InventorySnapshot): Promise<DiscountOffer[]>;
}

export const NO_DISCOUNTS: DiscountOffers = { offers: async () => [] };

export interface SwapContext {
  deployment: Deployment;
  solvers: SolverDirectory;
  inventory: InventoryReader;
  discounts: DiscountOffers;
  chain: SwapChain;
  protocolSigner: Pick<LocalAccount, "address" | "signTypedData">;
  database: Database;
  clock: Clock;
  logger: Logger;
  /** A fresh random 256-bit Reactor nonce per quote entry. */
  newNonce: () => bigint;
}

export function reactorRef(deployment: Pick<Deployment, "chainId" | "reactor">): {
  chainId: number;
  reactor: Address;
} {
  return { chainId: deployment.chainId, reactor: deployment.reactor };
}

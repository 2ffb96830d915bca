// One deployment's market: its tokens and Reactor, the solvers that quote on it, the inventory they fill from, the
// live discounts, chain reads, the protocol key, storage and time. Quotes, orders, liquidity and discounts all run
// on it, so it sits below them; the composition root builds it once.
import type { Address, LocalAccount } from "viem";
import type { SwapChain } from "../chain/swap-chain.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Deployment } from "../deployment/schema.ts";
import type { InventorySnapshot } from "../inventory/adapter-state.ts";
import type { DiscountOffer } from "../inventory/offer.ts";
import type { InventoryReader } from "../inventory/source.ts";
import type { Logger } from "../logger.ts";
import type { SolverConcurrency } from "../solvers/concurrency.ts";
import type { SolverDirectory } from "../solvers/directory.ts";

/** Live discounts usable as legs at a snapshot (validated against that block's chain state). */
export interface DiscountOffers {
  offers(snapshot: InventorySnapshot): Promise<DiscountOffer[]>;
}

export const NO_DISCOUNTS: DiscountOffers = { offers: async () => [] };

/** One solver's answer in a finished auction round, as the fade breaker counts it. */
export interface RoundAnswer {
  solverId: string;
  outcome: "quoted" | "declined" | "rejected";
  /** The rejection's reason code (src/solvers/client.ts). */
  reason?: string;
}

/** Told of every finished /quote round and /order hard round. */
export interface RoundObserver {
  observed(round: { swapper: string; answers: readonly RoundAnswer[]; at: Date }): void;
}

/** One deployment's market, as the quote, order, liquidity and discount services see it. */
export interface Market {
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
  /** Told of every finished round (the fade breaker's failure count); none in tests that do not need it. */
  rounds?: RoundObserver;
  /** Each solver's in-flight quote requests against its cap, shared by /quote rounds and hard rounds. */
  concurrency?: SolverConcurrency;
}

export function reactorRef(deployment: Pick<Deployment, "chainId" | "reactor">): {
  chainId: number;
  reactor: Address;
} {
  return { chainId: deployment.chainId, reactor: deployment.reactor };
}

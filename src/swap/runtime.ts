// Assembles the swap flow of one deployment: chain clients, the per-block adapter reads, solvers, and the context
// the services run on. The server and the tests build it the same way.
import type { LocalAccount } from "viem";
import { AdapterReader } from "../chain/adapter-reader.ts";
import { BlockTracker } from "../chain/blocks.ts";
import { type ChainPublicClient, createChainPublicClient } from "../chain/client.ts";
import { ViemSwapChain } from "../chain/swap-chain.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Deployment } from "../deployment/schema.ts";
import { createDiscountRuntime, type DiscountRuntime } from "../discounts/runtime.ts";
import { type ChainIdentity, ensureChainIdentity } from "../indexer/chain-identity.ts";
import { ReactorIndexer } from "../indexer/indexer.ts";
import { InventorySource } from "../inventory/source.ts";
import type { Logger } from "../logger.ts";
import { type DiscountOffers, type Market, reactorRef } from "../market/market.ts";
import { OrderEvents } from "../orders/order-events.ts";
import { SolverDirectory } from "../solvers/directory.ts";
import { SolverLogoStore } from "../solvers/logos.ts";
import { RandomNoncePool } from "./nonces.ts";

export interface SwapRuntimeOptions {
  deployment: Deployment;
  rpcUrls: readonly string[];
  protocolSigner: LocalAccount;
  solverSecrets: Map<string, string>;
  database: Database;
  clock: Clock;
  logger: Logger;
  /** How often the chain head is polled (default 1000 ms). */
  blockPollIntervalMs?: number;
  /** How often the indexer looks for new blocks (default 1000 ms). */
  indexerPollIntervalMs?: number;
  /** Run the Reactor indexer and reconciler in this process (default true). */
  indexer?: boolean;
  discounts?: DiscountOffers;
  publicClient?: ChainPublicClient;
  /**
   * The chain the stored swap state belongs to; by default the deployment's chain id and the genesis hash read at
   * start. The devnet names its own (anvil's genesis can change across state reloads).
   */
  chainIdentity?: ChainIdentity;
}

export interface SwapRuntime {
  context: Market;
  publicClient: ChainPublicClient;
  blocks: BlockTracker;
  indexer: ReactorIndexer;
  /** This process's order changes: written by POST /order and the indexer, read by GET /orders. */
  orderEvents: OrderEvents;
  /** Signed discounts: the store, POST /discount, the internal solvers' API and the expiry worker. */
  discounts: DiscountRuntime;
  /** Binds the stored swap state to this chain (resetting it if the chain changed), then starts the workers. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createSwapRuntime(options: SwapRuntimeOptions): SwapRuntime {
  const { deployment } = options;
  const publicClient =
    options.publicClient ??
    createChainPublicClient({
      chainId: deployment.chainId,
      name: deployment.chainName,
      rpcUrls: options.rpcUrls,
      ...(deployment.multicall ? { multicall3: deployment.multicall } : {}),
    });
  const blocks = new BlockTracker(publicClient, options.blockPollIntervalMs ?? 1000);
  const solvers = SolverDirectory.fromDeployment(deployment, options, new SolverLogoStore());
  const reader = new AdapterReader(
    publicClient,
    deployment.multicall ? { multicallAddress: deployment.multicall } : {},
  );
  const inventory = new InventorySource({
    reader,
    blocks,
    deployment,
    authorizationCandidates: () => [...new Set(solvers.all().map((solver) => solver.filler))],
  });
  // Discount signers are not authorization candidates of the snapshot: each discount's nonce is read per block
  // anyway, and its signer's isFiller rides in that same read (src/discounts/live.ts), which also covers a
  // discount published in the middle of a block whose snapshot was read before it.
  const discounts = createDiscountRuntime({
    deployment,
    publicClient,
    blocks,
    inventory,
    database: options.database,
    protocolSigner: options.protocolSigner,
    clock: options.clock,
    logger: options.logger,
    pollIntervalMs: options.blockPollIntervalMs ?? 1000,
  });
  const nonces = new RandomNoncePool();
  const context: Market = {
    deployment,
    solvers,
    inventory,
    discounts: options.discounts ?? discounts.live,
    chain: new ViemSwapChain(publicClient, reactorRef(deployment)),
    protocolSigner: options.protocolSigner,
    database: options.database,
    clock: options.clock,
    logger: options.logger,
    newNonce: () => nonces.next(),
  };
  const orderEvents = new OrderEvents();
  const indexer = new ReactorIndexer({
    database: options.database,
    client: publicClient,
    reactor: deployment.reactor,
    ...(deployment.multicall ? { multicall: deployment.multicall } : {}),
    confirmationDepth: deployment.confirmationDepth,
    startBlock: BigInt(deployment.startBlock),
    orderEvents,
    clock: options.clock,
    logger: options.logger.child({ worker: "indexer" }),
    pollIntervalMs: options.indexerPollIntervalMs ?? 1000,
  });
  return {
    context,
    publicClient,
    blocks,
    indexer,
    orderEvents,
    discounts,
    async start() {
      const identity = options.chainIdentity ?? {
        chainId: deployment.chainId,
        blockHash: (await publicClient.getBlock({ blockNumber: 0n })).hash,
      };
      await ensureChainIdentity(options.database, identity, options.logger, orderEvents);
      blocks.start();
      if (options.indexer ?? true) indexer.start();
      discounts.worker.start();
    },
    async stop() {
      blocks.stop();
      await discounts.worker.stop();
      await indexer.stop();
    },
  };
}

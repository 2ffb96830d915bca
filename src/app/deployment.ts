// The parts of one deployment's swap flow, each built once: the chain client and block tracker, the solver
// directory, the inventory, the discounts, the market they make up, quotes, orders, liquidity and the indexer.
// Building them reads nothing from the chain; `bindChain` and the workers do, from start() on.
import type { Address, LocalAccount } from "viem";
import { AuctionResults } from "../auctions/service.ts";
import { AdapterReader } from "../chain/adapter-reader.ts";
import { BlockTracker } from "../chain/blocks.ts";
import {
  type ChainPublicClient,
  createChainPublicClient,
  DEFAULT_RPC_TIMEOUT_MS,
  type RpcErrorKind,
} from "../chain/client.ts";
import { DEFAULT_BLOCK_POLL_MS, HeadFollower } from "../chain/heads.ts";
import { ViemSwapChain } from "../chain/swap-chain.ts";
import type { Clock } from "../clock.ts";
import { SolverCooldowns } from "../cooldowns/cooldowns.ts";
import { FadeLedger } from "../cooldowns/fades.ts";
import { FailureCounter } from "../cooldowns/failures.ts";
import { CooldownRepository } from "../cooldowns/repository.ts";
import type { Database } from "../db/client.ts";
import { type Deployment, finalityDepthOf } from "../deployment/schema.ts";
import type { DevFaucet } from "../devnet/faucet.ts";
import { DiscountChainReads } from "../discounts/chain-reads.ts";
import { DiscountExpiryWorker } from "../discounts/expiry-worker.ts";
import { LiveDiscounts } from "../discounts/live.ts";
import { DiscountRepository } from "../discounts/repository.ts";
import { DiscountService } from "../discounts/service.ts";
import { SolverDiscounts } from "../discounts/solver-discounts.ts";
import { type ChainIdentity, ensureChainIdentity } from "../indexer/chain-identity.ts";
import { ReactorIndexer } from "../indexer/indexer.ts";
import { InventorySource } from "../inventory/source.ts";
import { LiquidityService } from "../liquidity/service.ts";
import type { Logger } from "../logger.ts";
import { type Market, reactorRef } from "../market/market.ts";
import { CancelService } from "../orders/cancel-service.ts";
import type { OrderEvents } from "../orders/order-events.ts";
import { OrderService } from "../orders/order-service.ts";
import { OrderRepository } from "../orders/repository.ts";
import { SolverNotifications } from "../orders/solver-notifications.ts";
import { OutageLog } from "../outages.ts";
import { buildPointsEngine, type PointsEngineParts } from "../points-engine/build.ts";
import { RoundStore } from "../rounds/store.ts";
import type { SolverActivity } from "../scorecards/activity.ts";
import { AnswerStatsFold } from "../scorecards/answer-stats-fold.ts";
import { OrderStats } from "../scorecards/order-stats.ts";
import { ScorecardRepository } from "../scorecards/repository.ts";
import { ScorecardRetention } from "../scorecards/retention.ts";
import { ScorecardService } from "../scorecards/service.ts";
import { SolverConcurrency } from "../solvers/concurrency.ts";
import { SolverDirectory } from "../solvers/directory.ts";
import type { SolverLogoStore } from "../solvers/logos.ts";
import { type AddedSolverStore, SolverRegistry } from "../solvers/registry.ts";
import { RandomNoncePool } from "../swap/nonces.ts";
import { QuoteLookup } from "../swap/quote-lookup.ts";
import { QuoteService } from "../swap/quote-service.ts";
import { QuoteRepository } from "../swap/repository.ts";
import { QuoteRoundWriter } from "../swap/round-writer.ts";
import type { Step } from "./steps.ts";

/** A deployment to serve, with its secrets and what a test or the devnet replaces. */
export interface DeploymentOptions {
  deployment: Deployment;
  rpcUrls: readonly string[];
  protocolSigner: LocalAccount;
  solverSecrets: Map<string, string>;
  /**
   * The chain the stored swap state belongs to; by default the deployment's chain id and the genesis hash read at
   * start. The devnet names its own (anvil's genesis can change across state reloads).
   */
  chainIdentity?: ChainIdentity;
  /** A funded wallet the docs' examples quote for (the devnet's first demo account); none elsewhere. */
  demoSwapper?: Address;
  /** The devnet's faucet, behind the dev helpers; anywhere else they answer 403 DEV_ONLY. */
  faucet?: DevFaucet;
  /** How long one RPC URL gets to answer one request (RPC_TIMEOUT_MS; default DEFAULT_RPC_TIMEOUT_MS). */
  rpcTimeoutMs?: number;
  /** A WebSocket RPC endpoint new heads are pushed from (RPC_WS_URL); without one they are polled. */
  webSocketUrl?: string;
  /** How often eth_blockNumber is polled for new heads without a subscription (BLOCK_POLL_MS, default 250 ms). */
  headPollMs?: number;
  /** Follow new heads (default true): off, the block tracker, indexer and discount sweep run on their intervals. */
  followHeads?: boolean;
  /** How long the head the API uses is trusted without a new one vouching for it (default 1000 ms). */
  blockPollIntervalMs?: number;
  /** Without heads, how often the indexer looks for new blocks; with heads, how soon it retries (default 1000 ms). */
  indexerPollIntervalMs?: number;
  /** Run the Reactor indexer and reconciler in this process (default true). */
  indexer?: boolean;
  /** Run the points engine in this process when the deployment configures one (default true). */
  pointsEngine?: boolean;
  /**
   * Where solvers added while running are kept (the devnet's file): with one, the solver registry the admin routes
   * change is built. Without, the solvers are the deployment's, fixed.
   */
  solverStore?: AddedSolverStore;
}

/** What the deployment's parts are built on: the root's shared parts. */
export interface DeploymentContext {
  database: Database;
  clock: Clock;
  logger: Logger;
  solverLogos: SolverLogoStore;
  orderEvents: OrderEvents;
  /** This process's solver metrics, told what its round writes stored. */
  solverActivity?: SolverActivity;
  /** Told of every JSON-RPC call that failed (the RPC error counter). */
  onRpcError?: (method: string, kind: RpcErrorKind) => void;
}

export interface DeploymentParts {
  deployment: Deployment;
  publicClient: ChainPublicClient;
  /** New heads, which the block tracker, the indexer and the discount sweep wake on (none when not followed). */
  heads: HeadFollower | undefined;
  blocks: BlockTracker;
  market: Market;
  discounts: {
    repository: DiscountRepository;
    live: LiveDiscounts;
    service: DiscountService;
    solverDiscounts: SolverDiscounts;
    worker: DiscountExpiryWorker;
  };
  quotes: {
    repository: QuoteRepository;
    /** Stores each answered round after its answer; drained before the database closes. */
    roundWriter: QuoteRoundWriter;
    lookup: QuoteLookup;
    service: QuoteService;
  };
  orders: { repository: OrderRepository; service: OrderService; cancel: CancelService };
  auctions: AuctionResults;
  /** The fade breaker: the cooldown state every replica reads, and the counters of fades and failures. */
  cooldowns: {
    repository: CooldownRepository;
    view: SolverCooldowns;
    failures: FailureCounter;
    fades: FadeLedger;
  };
  liquidity: LiquidityService;
  /** GET /solvers: each solver's cooldown (the fade breaker's view) and scorecard. */
  scorecards: ScorecardService;
  indexer: ReactorIndexer;
  /** The own points type's engine; only when the deployment has a `pointsEngine` section. */
  pointsEngine: PointsEngineParts | undefined;
  /** Solvers added and removed while running (the admin routes); only with a solver store. */
  registry: SolverRegistry | undefined;
  /** Binds the stored swap state to this chain, resetting it (with a warning) if the chain changed. */
  bindChain(): Promise<void>;
  /**
   * In start order: solver notifications, the new heads, the block tracker, the indexer (unless off), the points
   * engine (when configured and not off), the discount expiry worker, the scorecards' minute-row pruning.
   */
  workers: Step[];
}

export function buildDeploymentParts(
  options: DeploymentOptions,
  context: DeploymentContext,
): DeploymentParts {
  const { deployment } = options;
  const { database, clock, logger, orderEvents } = context;
  const pollIntervalMs = options.blockPollIntervalMs ?? 1000;
  const multicall = deployment.multicall ? { multicallAddress: deployment.multicall } : {};

  const publicClient = createChainPublicClient({
    chainId: deployment.chainId,
    name: deployment.chainName,
    rpcUrls: options.rpcUrls,
    ...(deployment.multicall ? { multicall3: deployment.multicall } : {}),
    // A request that needs the chain answers (503 CHAIN_UNAVAILABLE at worst) within two tries of each URL.
    timeoutMs: options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
    retryCount: 1,
    outage: new OutageLog(logger, "chain", { chainId: deployment.chainId, chain: deployment.chainName }),
    ...(context.onRpcError ? { onRequestError: context.onRpcError } : {}),
  });
  // Every worker that waits for blocks wakes on a new head (pushed over RPC_WS_URL, else polled every BLOCK_POLL_MS).
  const heads =
    (options.followHeads ?? true)
      ? new HeadFollower({
          client: publicClient,
          ...(options.webSocketUrl ? { webSocketUrl: options.webSocketUrl } : {}),
          pollMs: options.headPollMs ?? DEFAULT_BLOCK_POLL_MS,
          logger: logger.child({ worker: "heads" }),
        })
      : undefined;
  const blocks = new BlockTracker(publicClient, pollIntervalMs, heads);
  const cooldownRepository = new CooldownRepository(database.db);
  const cooldownView = new SolverCooldowns(
    cooldownRepository,
    clock,
    logger.child({ worker: "solver-cooldowns" }),
    deployment.cooldown,
    deployment.solvers.filter((solver) => solver.enabled).map((solver) => solver.id),
  );
  const cooldowns = {
    repository: cooldownRepository,
    view: cooldownView,
    failures: new FailureCounter(database, cooldownRepository, cooldownView, clock, logger),
    fades: new FadeLedger(cooldownRepository, cooldownView, clock),
  };
  const solvers = SolverDirectory.fromDeployment(deployment, options, context.solverLogos, cooldownView);
  const inventory = new InventorySource({
    reader: new AdapterReader(publicClient, multicall),
    blocks,
    deployment,
    authorizationCandidates: () => solvers.fillers(),
  });

  // Discount signers are not authorization candidates of the snapshot: each discount's nonce is read per block
  // anyway, and its signer's isFiller rides in that same read (src/discounts/live.ts), which also covers a
  // discount published in the middle of a block whose snapshot was read before it.
  const discountRepository = new DiscountRepository(database, { clock });
  const discountReads = new DiscountChainReads(publicClient, {
    ...multicall,
    onLatestBlock: (head) => blocks.observe(head),
  });
  const live = new LiveDiscounts({
    repository: discountRepository,
    reads: discountReads,
    protocolSigner: deployment.protocolSigner,
    logger,
  });
  const discounts = {
    repository: discountRepository,
    live,
    service: new DiscountService({
      deployment,
      client: publicClient,
      reads: discountReads,
      repository: discountRepository,
      clock,
    }),
    solverDiscounts: new SolverDiscounts({
      deployment,
      repository: discountRepository,
      live,
      inventory,
      protocolSigner: options.protocolSigner,
    }),
    worker: new DiscountExpiryWorker({
      repository: discountRepository,
      live,
      inventory,
      blocks,
      deployment,
      logger: logger.child({ worker: "discount-expiry" }),
      pollIntervalMs,
      ...(heads ? { heads } : {}),
    }),
  };

  const nonces = new RandomNoncePool();
  const market: Market = {
    deployment,
    solvers,
    inventory,
    discounts: live,
    chain: new ViemSwapChain(publicClient, reactorRef(deployment)),
    protocolSigner: options.protocolSigner,
    database,
    clock,
    logger,
    newNonce: () => nonces.next(),
    rounds: cooldowns.failures,
    concurrency: new SolverConcurrency({ clientShare: deployment.solverClientShare }),
  };

  const quoteRepository = new QuoteRepository(database, context.solverActivity);
  const roundStore = new RoundStore(database, context.solverActivity);
  const roundWriter = new QuoteRoundWriter({
    save: (rounds) => quoteRepository.saveQuoteRounds(rounds),
    logger,
    clock,
  });
  const lookup = new QuoteLookup({
    repository: quoteRepository,
    pending: roundWriter,
    clock,
    quoteLifetimeSeconds: deployment.quoteLifetimeSeconds,
  });
  const quotes = {
    repository: quoteRepository,
    roundWriter,
    lookup,
    service: new QuoteService(market, quoteRepository, roundWriter),
  };
  // The scorecards count every order as its writers pass it: POST /order's creation and the indexer's changes.
  const orderStats = new OrderStats();
  const orderRepository = new OrderRepository(database, orderEvents, orderStats);
  const orders = {
    repository: orderRepository,
    service: new OrderService(market, roundStore, orderRepository, lookup),
    cancel: new CancelService(deployment, orderRepository, blocks),
  };

  const indexer = new ReactorIndexer({
    database,
    client: publicClient,
    reactor: deployment.reactor,
    ...(deployment.multicall ? { multicall: deployment.multicall } : {}),
    confirmationDepth: deployment.confirmationDepth,
    finalityDepth: finalityDepthOf(deployment),
    useFinalizedTag: !deployment.local,
    startBlock: BigInt(deployment.startBlock),
    orderEvents,
    clock,
    logger: logger.child({ worker: "indexer" }),
    pollIntervalMs: options.indexerPollIntervalMs ?? 1000,
    ...(heads ? { heads } : {}),
    endObserver: cooldowns.fades,
    orderObserver: orderStats,
  });

  const pointsEngine =
    deployment.pointsEngine &&
    buildPointsEngine({
      config: deployment.pointsEngine,
      confirmationDepth: deployment.confirmationDepth,
      finalityDepth: finalityDepthOf(deployment),
      client: publicClient,
      database,
      clock,
      logger: logger.child({ worker: "points-engine" }),
      ...(heads ? { heads } : {}),
      pollIntervalMs: options.indexerPollIntervalMs ?? 1000,
    });

  const notifications = new SolverNotifications({
    database,
    events: orderEvents,
    solvers: solvers
      .all()
      .flatMap((solver) =>
        solver.notifyUrl && solver.sharedSecret
          ? [{ id: solver.id, notifyUrl: solver.notifyUrl, sharedSecret: solver.sharedSecret }]
          : [],
      ),
    logger: logger.child({ worker: "solver-notifications" }),
  });

  const scorecardRetention = new ScorecardRetention(
    database,
    clock,
    logger.child({ worker: "scorecard-retention" }),
  );
  const answerStatsFold = new AnswerStatsFold(database, logger.child({ worker: "scorecard-fold" }));
  const workers: Step[] = [
    { name: "solver notifications", start: () => notifications.start(), stop: () => notifications.stop() },
    ...(heads ? [{ name: "heads", start: () => heads.start(), stop: () => heads.stop() }] : []),
    { name: "block tracker", start: () => blocks.start(), stop: () => blocks.stop() },
    ...((options.indexer ?? true)
      ? [{ name: "indexer", start: () => indexer.start(), stop: () => indexer.stop() }]
      : []),
    ...(pointsEngine && (options.pointsEngine ?? true)
      ? [
          {
            name: "points engine",
            start: () => pointsEngine.engine.start(),
            stop: () => pointsEngine.engine.stop(),
          },
        ]
      : []),
    { name: "discount expiry", start: () => discounts.worker.start(), stop: () => discounts.worker.stop() },
    {
      name: "scorecard retention",
      start: () => scorecardRetention.start(),
      stop: () => scorecardRetention.stop(),
    },
    { name: "scorecard fold", start: () => answerStatsFold.start(), stop: () => answerStatsFold.stop() },
  ];

  return {
    deployment,
    publicClient,
    heads,
    blocks,
    market,
    discounts,
    quotes,
    orders,
    auctions: new AuctionResults({
      quotes: quoteRepository,
      rounds: roundStore,
      orders: orderRepository,
      pending: roundWriter,
      clock,
    }),
    cooldowns,
    liquidity: new LiquidityService(market),
    scorecards: new ScorecardService({
      repository: new ScorecardRepository(database),
      solvers,
      cooldowns: cooldowns.view,
      clock,
    }),
    indexer,
    pointsEngine,
    registry:
      options.solverStore &&
      new SolverRegistry({
        directory: solvers,
        store: options.solverStore,
        clock,
        // The Executor of a solver being added was authorized in a block mined before the call: the head is read
        // now, so the next auction reads that block, not the one the tracker saw up to a poll interval ago.
        beforeAdd: async () => blocks.observe(await publicClient.getBlock({ blockTag: "latest" })),
      }),
    async bindChain() {
      const identity = options.chainIdentity ?? {
        chainId: deployment.chainId,
        blockHash: (await publicClient.getBlock({ blockNumber: BigInt(deployment.identityBlock) })).hash,
      };
      await ensureChainIdentity(database, identity, logger, orderEvents);
    },
    workers,
  };
}

// The composition root: every part of a running Sluice is built here, once, and handed to whoever needs it. What a
// newcomer sees here is the whole: what is built, what is shared, what starts and stops, and in which order.
//
// Built: the database (opened and prepared, or given), the clock, the logger, the lifecycle, the registry and points
// read models, the solver logos, the order events and the open-orders cache, and — for a deployment — the chain
// client, block tracker, solvers, inventory, discounts, market, quotes, orders, liquidity and indexer
// (deployment.ts); then the route table and two HTTP servers from it: the public one (HOST/PORT) and the internal
// one (INTERNAL_HOST/INTERNAL_PORT: the internal discount API and /metrics), guarded per INTERNAL_API_AUTH and
// answering no CORS and no Host that does not name it (http/host-guard.ts).
//
// Registered here too: GET /ready's checks (serving, database, migrations, and for a deployment the chain head, and the
// indexer and the points engine as chain followers; src/readiness) and the operations gauges on /metrics
// (http/operations-metrics.ts). A part built later adds its own check to `parts.readiness`, or itself to `parts.followers` when it follows the chain.
//
// What starts and stops is one list, `steps` below, started first to last and stopped last to first; its order and
// the reason for each place are in docs/architecture.md "Start and stop" (test/devnet/devnet.test.ts keeps the
// two equal). The listeners start last and stop first: every request runs with every other part up and drains
// before any stops. The whole stop is bounded once, by the signal handler (shutdown.ts, src/cli/signals.ts).
// On the devnet that list is: database → anvil → bundled solvers → api keys → order feed → solver cooldowns → chain
// binding → order log retention → points engine position → solver notifications → heads → block tracker → indexer →
// points engine → discount expiry → scorecard retention → scorecard fold → HTTP listeners → admin address.
import { AdminOperations, type AdminPointsEngine } from "../admin/operations.ts";
import { removeAdminServerRecord, writeAdminServerRecord } from "../admin/running-server.ts";
import { AdminGuard } from "../admin/token.ts";
import { ApiKeyDirectory } from "../api-keys/directory.ts";
import { ApiKeyRepository } from "../api-keys/repository.ts";
import { type Clock, systemClock } from "../clock.ts";
import { checkInternalListener, DEFAULT_INTERNAL_PORT, type Env, httpTimeouts } from "../config/env.ts";
import type { Database } from "../db/client.ts";
import { ConnectionBudget } from "../db/connection-budget.ts";
import { PeriodicJob } from "../db/periodic-job.ts";
import { DemoPage } from "../demo-page/assets.ts";
import { DevRpcRelay } from "../devnet/rpc-relay.ts";
import { internalAllowedHosts } from "../http/host-guard.ts";
import { Lifecycle, servingCheck } from "../http/lifecycle.ts";
import { createHttpMetrics, type HttpMetrics, registerCooldownGauge } from "../http/metrics.ts";
import { documentExamples } from "../http/openapi-examples.ts";
import { registerOperationsGauges } from "../http/operations-metrics.ts";
import { RequestLimits } from "../http/request-limits.ts";
import type { DeploymentServices } from "../http/routes.ts";
import { sluiceRoutes } from "../http/routes.ts";
import { API_PREFIX, type App, buildServer } from "../http/server.ts";
import { StreamConnections } from "../http/stream-connections.ts";
import { readIndexerProgress } from "../indexer/progress.ts";
import { QuoteAdmission } from "../limits/quote-admission.ts";
import { ReplicaPresence } from "../limits/replica-presence.ts";
import { ReplicaShareCounter } from "../limits/replica-share.ts";
import { MemoryWindowCounter, PostgresWindows } from "../limits/window-counters.ts";
import { WindowLeases } from "../limits/window-leases.ts";
import type { Logger } from "../logger.ts";
import { OrderEventRetention } from "../orders/event-retention.ts";
import { readShortList } from "../orders/list.ts";
import { OpenOrdersCache } from "../orders/open-orders-cache.ts";
import { OrderEvents } from "../orders/order-events.ts";
import { OrderFeed } from "../orders/order-feed.ts";
import { OrderStreams } from "../orders/order-stream.ts";
import { readOverdueOrders } from "../orders/overdue.ts";
import { failureLevel } from "../outages.ts";
import { PointsRepository } from "../points/repository.ts";
import { PointsService } from "../points/service.ts";
import type { PointsEngineParts } from "../points-engine/build.ts";
import { readEngineProgress } from "../points-engine/progress.ts";
import { engineStatusText } from "../points-engine/status.ts";
import { chainHeadCheck } from "../readiness/chain-head.ts";
import { ReadinessChecks } from "../readiness/checks.ts";
import { databaseCheck, migrationsCheck } from "../readiness/database.ts";
import { ChainFollowers } from "../readiness/followers.ts";
import { RegistryResponses } from "../registry/responses.ts";
import { SolverLogoStore } from "../solvers/logos.ts";
import { TrailService } from "../trail/trail.ts";
import { openServerDatabase, prepareDatabase } from "./database.ts";
import { buildDeploymentParts, type DeploymentOptions, type DeploymentParts } from "./deployment.ts";
import { listeningPort, reachableHost } from "./listen-address.ts";
import { type Step, stopInReverse } from "./steps.ts";

export interface SluiceOptions {
  /** PORT, HOST, PUBLIC_URL, SHUTDOWN_GRACE_MS, the HTTP timeouts, and the database and demo-data settings. */
  env: Env;
  logger: Logger;
  /** Default: the system clock. */
  clock?: Clock;
  /** An open database (tests, the devnet); by default the one `env` names, opened here. */
  database?: Database;
  /** The given database has been migrated (and seeded) already: the devnet does it while anvil starts. */
  databasePrepared?: boolean;
  /** Close the database on stop (default: only one opened here). */
  closeDatabase?: boolean;
  /** The deployment whose swap flow to serve; without one, only the partner API (and the system routes). */
  deployment?: DeploymentOptions;
  /** Listen on PORT/HOST at start (default true); tests answer through `inject` instead. */
  listen?: boolean;
  /** Called just before the listeners bind: the devnet frees the ports it held for them (src/app/listen-address.ts). */
  beforeListen?: () => Promise<void>;
  /** Default process metrics (CPU, memory, event loop) on /metrics (default true). */
  collectProcessMetrics?: boolean;
  /**
   * Parts already running when the root is built, in the order they started (the devnet's anvil, then its bundled
   * solvers): stopped after the root's own workers, last started first.
   */
  running?: Array<Pick<Step, "name" | "stop">>;
  /**
   * This run's admin token (src/admin/token.ts) and the data directory of its embedded database: with them the
   * internal listener serves the admin routes (the operators' imports and overrides, and on the devnet the solvers
   * it adds and removes), and the server says where they are in the data directory while it runs
   * (src/admin/running-server.ts), for the commands beside it that cannot open the database.
   */
  admin?: { token: string; dataDir: string };
}

/** The parts every Sluice has. */
export interface SluiceParts {
  database: Database;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
  registry: RegistryResponses;
  points: PointsService;
  solverLogos: SolverLogoStore;
  /** This process's order changes: written by POST /order, the indexer and a chain reset; read by the cache. */
  orderEvents: OrderEvents;
  /** The solvers' open-orders polls, answered from memory between order changes. */
  openOrders: OpenOrdersCache;
  /** This replica's one reader of the order log, fanning changes out to its order streams. */
  orderFeed: OrderFeed;
  /** The order streams this replica holds, bounded and ended at shutdown. */
  streamConnections: StreamConnections;
  /** The live API keys, re-read on every change of any process (NOTIFY). */
  apiKeys: ApiKeyDirectory;
  /** The public API's request limits: keys, and rates per class. */
  requestLimits: RequestLimits;
  /** On PostgreSQL, the replicas present, among which the read limit is divided. */
  replicaPresence?: ReplicaPresence;
  /** /quote's load shedding on this replica. */
  quoteAdmission: QuoteAdmission;
  /**
   * GET /ready's checks: serving, database, migrations, and for a deployment the chain head and the indexer. A part
   * added later registers its own here (or, following the chain, in `followers`).
   */
  readiness: ReadinessChecks;
  /** The chain followers (the indexer; a points engine adds itself): each a readiness check and lag gauges. */
  followers: ChainFollowers;
  /**
   * This process's Prometheus registry and counters (/metrics on the internal listener): the rate limiter counts its
   * rejections in `rateLimitRejections`; a part with series of its own registers them on `registry`.
   */
  metrics: HttpMetrics;
}

export interface Sluice {
  parts: SluiceParts;
  /** The swap flow's parts; undefined on a partner-only Sluice. */
  deployment: DeploymentParts | undefined;
  /** The public API: built, routes mounted, not listening until start(). */
  http: App;
  /** The internal listener (internal discount API, /metrics), likewise. */
  internalHttp: App;
  /** Everything that starts and stops, in start order (stopped in reverse). */
  steps: readonly Step[];
  /** The base URL the API listens on once started, e.g. `http://127.0.0.1:8080/api/v1`. */
  readonly apiUrl: string;
  /** The internal API's base once started, e.g. `http://127.0.0.1:8081/api-internal/v1`. */
  readonly internalApiUrl: string;
  /** Prometheus metrics on the internal listener once started, e.g. `http://127.0.0.1:8081/metrics`. */
  readonly metricsUrl: string;
  start(): Promise<void>;
  /** Drains and stops everything; resolves once the database is closed. Idempotent. */
  stop(): Promise<void>;
}

export async function buildSluice(options: SluiceOptions): Promise<Sluice> {
  const database = options.database ?? (await openServerDatabase(options.env, options.logger));
  const closeDatabase = options.closeDatabase ?? options.database === undefined;
  try {
    if (!options.databasePrepared) await prepareDatabase(database, options.env, options.logger);
    return await compose(options, database, closeDatabase);
  } catch (error) {
    // A database this Sluice would close on stop is closed when it cannot be built, too.
    if (closeDatabase) await database.close().catch(() => {});
    throw error;
  }
}

async function compose(options: SluiceOptions, database: Database, closeDatabase: boolean): Promise<Sluice> {
  const { env, logger } = options;
  checkInternalListener(env);
  const clock = options.clock ?? systemClock;
  const lifecycle = new Lifecycle();
  const solverLogos = new SolverLogoStore();
  const orderEvents = new OrderEvents();
  const openOrders = new OpenOrdersCache((query) => readShortList(database, query), clock);
  const stopInvalidating = orderEvents.subscribe(() => openOrders.invalidate());
  const metrics = createHttpMetrics({ collectProcessMetrics: options.collectProcessMetrics ?? true });
  // The order changes this process wrote, counted once here (other replicas count their own).
  const stopCountingOrders = orderEvents.subscribe((event) => {
    if (event.kind === "status") metrics.solvers.orderStatus(event.solverId, event.from, event.to);
  });
  const deployment = options.deployment
    ? buildDeploymentParts(
        {
          rpcTimeoutMs: env.RPC_TIMEOUT_MS,
          headPollMs: env.BLOCK_POLL_MS,
          ...(env.RPC_WS_URL && env.RPC_WS_URL !== "off" ? { webSocketUrl: env.RPC_WS_URL } : {}),
          ...(env.INDEXER === "off" ? { indexer: false } : {}),
          ...(env.POINTS_ENGINE === "off" ? { pointsEngine: false } : {}),
          ...options.deployment,
        },
        {
          database,
          clock,
          logger,
          solverLogos,
          orderEvents,
          solverActivity: metrics.solvers,
          onRpcError: (method, kind) => metrics.rpcErrors.inc({ method, kind }),
        },
      )
    : undefined;
  const apiKeyRepository = new ApiKeyRepository(database.db);
  const apiKeys = new ApiKeyDirectory(database, apiKeyRepository, logger.child({ worker: "api-keys" }));
  // On PostgreSQL the fan-out class is counted in the database, venue-wide, through leases of several hits
  // (window-leases.ts); reads are counted in memory, each replica weighing its hits by the replicas present (a database
  // round trip per read would cost more than the read).
  const localCounts = new MemoryWindowCounter(clock);
  const presence =
    database.kind === "postgres"
      ? new ReplicaPresence(database, logger.child({ worker: "rate-limits" }))
      : undefined;
  const sharedWindows = database.kind === "postgres" ? new PostgresWindows(database) : undefined;
  const sharedCounts =
    sharedWindows && presence
      ? new WindowLeases(
          sharedWindows,
          new MemoryWindowCounter(clock),
          presence,
          clock,
          logger.child({ worker: "rate-limits" }),
        )
      : undefined;
  const readiness = new ReadinessChecks({ timeoutMs: env.READY_CHECK_TIMEOUT_MS });
  readiness.register(servingCheck(lifecycle));
  readiness.register(databaseCheck(database));
  readiness.register(migrationsCheck(database));
  const followers = new ChainFollowers(readiness);
  const parts: SluiceParts = {
    database,
    clock,
    logger,
    lifecycle,
    registry: new RegistryResponses(database, clock),
    points: new PointsService(
      new PointsRepository(database),
      database,
      clock,
      deployment?.pointsEngine ? { own: deployment.pointsEngine.own } : {},
    ),
    solverLogos,
    orderEvents,
    openOrders,
    orderFeed: new OrderFeed(database, orderEvents, logger.child({ worker: "order-feed" })),
    streamConnections: new StreamConnections({
      maxConnections: env.STREAM_MAX_CONNECTIONS,
      maxPerIp: env.STREAM_MAX_PER_IP,
      maxPerSolver: env.STREAM_MAX_PER_SOLVER,
    }),
    apiKeys,
    replicaPresence: presence,
    requestLimits: new RequestLimits({
      anonymous: { quote: env.RATE_LIMIT_QUOTES_PER_MINUTE, read: env.RATE_LIMIT_READS_PER_SECOND },
      counters: {
        quote: sharedCounts ?? localCounts,
        read: presence ? new ReplicaShareCounter(localCounts, presence) : localCounts,
      },
      keys: apiKeys,
      ...(deployment ? { solvers: deployment.market.solvers } : {}),
    }),
    quoteAdmission: new QuoteAdmission({
      maxInFlight: env.QUOTE_MAX_IN_FLIGHT,
      maxEventLoopDelayMs: env.SHED_EVENT_LOOP_DELAY_MS,
      logger: logger.child({ part: "quote-admission" }),
    }),
    readiness,
    followers,
    metrics,
  };

  if (deployment) {
    const { blocks } = deployment;
    readiness.register(
      chainHeadCheck(blocks, {
        maxHeadAgeMs: env.READY_HEAD_MAX_AGE_MS,
        // A local chain (the devnet, tests) mines on its own schedule, or only when asked.
        maxBlockAgeSeconds: deployment.deployment.local ? 0 : env.READY_MAX_BLOCK_AGE_SECONDS,
        clock,
      }),
    );
    followers.add({
      name: "indexer",
      maxLagBlocks: env.READY_MAX_INDEXER_LAG_BLOCKS,
      read: () =>
        readIndexerProgress({
          database,
          head: blocks,
          confirmationDepth: deployment.deployment.confirmationDepth,
          startBlock: BigInt(deployment.deployment.startBlock),
        }),
    });
    const { pointsEngine } = deployment;
    if (pointsEngine)
      followers.add({
        name: "points-engine",
        maxLagBlocks: env.READY_MAX_POINTS_ENGINE_LAG_BLOCKS,
        read: () =>
          readEngineProgress({
            database,
            head: blocks,
            confirmations: pointsEngine.confirmations,
            startBlock: pointsEngine.config.startBlock,
          }),
      });
  }
  registerOperationsGauges(metrics, {
    clock,
    timeoutMs: env.READY_CHECK_TIMEOUT_MS,
    followers: () => followers.all(),
    database,
    streams: parts.streamConnections,
    ...(deployment
      ? {
          deployment: {
            head: deployment.blocks,
            orderFeedLagSeconds: () => parts.orderFeed.lagSeconds(),
            overdueOrders: (nowSeconds: number) => readOverdueOrders(database, nowSeconds),
          },
        }
      : {}),
  });
  const deploymentServices: DeploymentServices | undefined = deployment && {
    market: deployment.market,
    quotes: deployment.quotes.service,
    quoteAdmission: parts.quoteAdmission,
    orders: deployment.orders.service,
    auctions: deployment.auctions,
    cancel: deployment.orders.cancel,
    database,
    openOrders,
    orderStreams: {
      streams: new OrderStreams(database, parts.orderFeed, {
        budget: new ConnectionBudget(env.STREAM_DB_CONNECTIONS),
        onError: (error) =>
          logger[failureLevel(error, "warn")](
            { err: error },
            "order stream ended by a failed read; its client resumes",
          ),
      }),
      connections: parts.streamConnections,
      solvers: deployment.market.solvers,
    },
    liquidity: deployment.liquidity,
    scorecards: deployment.scorecards,
    discounts: deployment.discounts.service,
    solverDiscounts: deployment.discounts.solverDiscounts,
    dev: {
      deployment: deployment.deployment,
      // A devnet (it has a faucet) also relays its chain to the demo page, which it serves.
      ...(options.deployment?.faucet
        ? {
            faucet: options.deployment.faucet,
            rpc: new DevRpcRelay(options.deployment.rpcUrls[0]!),
            demoPage: new DemoPage(),
          }
        : {}),
    },
    publicUrl: env.PUBLIC_URL,
    internalAuth: env.INTERNAL_API_AUTH,
    trails: new TrailService(database),
  };

  if (deployment) {
    const { view } = deployment.cooldowns;
    registerCooldownGauge(metrics, {
      // Read at each scrape: a devnet's solvers can change while it runs.
      solverIds: () => deployment.market.solvers.all().map((solver) => solver.id),
      isCoolingDown: (solverId) => view.isCoolingDown(solverId),
      keptByFloor: () => view.keptByFloor(),
    });
  }
  let metricsUrl: string | undefined;
  const internalPortSetting = env.INTERNAL_PORT ?? DEFAULT_INTERNAL_PORT;
  const routes = sluiceRoutes(
    {
      lifecycle,
      readiness,
      clock,
      metrics,
      metricsUrl: () => metricsUrl,
      registry: parts.registry,
      points: parts.points,
      solverLogos,
      ...(options.admin
        ? {
            admin: {
              guard: new AdminGuard(options.admin.token),
              operations: new AdminOperations({
                database,
                clock,
                logger: logger.child({ part: "admin" }),
                written: {
                  points: () => parts.points.invalidate(),
                  registry: () => parts.registry.invalidate(),
                  // The other replicas re-read within their refresh interval; this one at once.
                  cooldowns: async () => deployment?.cooldowns.view.refresh(),
                },
                ...(deployment?.pointsEngine
                  ? { pointsEngine: adminPointsEngine(database, deployment.pointsEngine) }
                  : {}),
              }),
              keys: { repository: apiKeyRepository, directory: apiKeys, clock },
              ...(deployment?.registry ? { solvers: deployment.registry } : {}),
            },
          }
        : {}),
    },
    deploymentServices,
  );
  const serverOptions = { clock, logger, metrics, timeouts: httpTimeouts(env) };
  // The document is this deployment's: its examples use its chain, tokens and (devnet) demo swapper.
  const examples = documentExamples({
    prefix: API_PREFIX,
    ...(deployment ? { deployment: deployment.deployment } : {}),
    ...(options.deployment?.demoSwapper ? { demoSwapper: options.deployment.demoSwapper } : {}),
  });
  const http = await buildServer({
    ...serverOptions,
    examples,
    ...(env.RATE_LIMITS === "on" ? { limits: parts.requestLimits } : {}),
    quoteAdmission: parts.quoteAdmission,
    ...(env.TRUST_PROXY ? { trustProxy: env.TRUST_PROXY } : {}),
    routes: routes.filter((r) => r.listener === "public"),
  });
  const internalHttp = await buildServer({
    ...serverOptions,
    routes: routes.filter((r) => r.listener === "internal"),
    internal: { allowedHosts: internalAllowedHosts(env.INTERNAL_HOST, env.INTERNAL_ALLOWED_HOSTS) },
  });

  // Everything that starts and stops, in one list: started first to last, stopped last to first (docs/architecture.md
  // "Start and stop" prints this list; test/devnet/devnet.test.ts keeps the two equal).
  const retention = new OrderEventRetention(
    database,
    clock,
    logger.child({ worker: "order-log-retention" }),
    env.STREAM_RETENTION_HOURS * 3600 * 1000,
  );
  const prune =
    sharedWindows &&
    new PeriodicJob(60_000, () =>
      sharedWindows.prune().catch((error: unknown) => {
        logger.warn({ err: error }, "rate limits: pruning old windows failed");
      }),
    );
  let apiUrl: string | undefined;
  let internalApiUrl: string | undefined;
  const steps: readonly Step[] = [
    // Opened (and migrated) while building; closed last, when this root opened it.
    { name: "database", start: () => {}, stop: () => (closeDatabase ? database.close() : undefined) },
    // The devnet's anvil and bundled solvers: started before the root, so their start is behind us.
    ...(options.running ?? []).map((part) => ({ name: part.name, start: () => {}, stop: () => part.stop() })),
    // Read before the listeners open: no request is answered from keys not yet read.
    { name: "api keys", start: () => apiKeys.start(), stop: () => apiKeys.stop() },
    // The shared rate-limit windows (PostgreSQL only) are pruned behind the clock.
    ...(prune
      ? [{ name: "rate-limit window pruning", start: () => prune.start(), stop: () => prune.stop() }]
      : []),
    // Counted before the listeners open, so the first reads are already divided among the replicas present.
    ...(presence
      ? [{ name: "replica presence", start: () => presence.start(), stop: () => presence.stop() }]
      : []),
    ...(deployment
      ? [
          // The order log's one reader: before anything can write an order or open a stream.
          { name: "order feed", start: () => parts.orderFeed.start(), stop: () => parts.orderFeed.stop() },
          // Read before the listeners open: no auction may ask a solver that is in cooldown.
          {
            name: "solver cooldowns",
            start: () => deployment.cooldowns.view.start(),
            stop: () => deployment.cooldowns.view.stop(),
          },
          // The stored swap state belongs to this chain (or is reset to it) before a worker or request reads it.
          { name: "chain binding", start: () => deployment.bindChain(), stop: () => {} },
          { name: "order log retention", start: () => retention.start(), stop: () => retention.stop() },
          // The own points' position, read (and listening for each step's commit) before the listeners open.
          ...(deployment.pointsEngine
            ? [
                {
                  name: "points engine position",
                  start: () => deployment.pointsEngine!.position.start(),
                  stop: () => deployment.pointsEngine!.position.stop(),
                },
              ]
            : []),
          ...deployment.workers,
        ]
      : []),
    // Last to start, first to stop: every request is served with every other part running, and drains before they stop.
    {
      name: "HTTP listeners",
      async start() {
        if (!(options.listen ?? true)) return;
        await options.beforeListen?.();
        await http.listen({ port: env.PORT, host: env.HOST });
        apiUrl = `http://127.0.0.1:${listeningPort(http.server, env.PORT)}/api/v1`;
        try {
          await internalHttp.listen({ port: internalPortSetting, host: env.INTERNAL_HOST });
        } catch (error) {
          await http.close();
          throw error;
        }
        const internalPort = listeningPort(internalHttp.server, internalPortSetting);
        const internalOrigin = `http://${reachableHost(env.INTERNAL_HOST)}:${internalPort}`;
        internalApiUrl = `${internalOrigin}/api-internal/v1`;
        metricsUrl = `${internalOrigin}/metrics`;
      },
      async stop() {
        lifecycle.startDraining();
        // Load balancers see /health turn 503 during the grace period and stop routing here before the listener goes.
        if (env.SHUTDOWN_GRACE_MS > 0)
          await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_GRACE_MS));
        logger.info("draining: finishing in-flight requests");
        // Order streams never finish by themselves: they end now, and their clients resume on another replica.
        parts.streamConnections.endAll();
        // close() stops the listener and waits for in-flight requests (SHUTDOWN_TIMEOUT_MS bounds it).
        await Promise.all([http.close(), internalHttp.close()]);
        // Rounds answered but not yet stored are written before anything they need stops.
        await deployment?.quotes.roundWriter.drain();
      },
    },
    // Once the admin routes answer: where a command beside this server finds them (src/admin/running-server.ts).
    {
      name: "admin address",
      start: () => {
        if (options.admin && internalApiUrl)
          writeAdminServerRecord(options.admin.dataDir, { internalApiUrl, pid: process.pid });
      },
      stop: () => {
        if (options.admin) removeAdminServerRecord(options.admin.dataDir);
      },
    },
  ];
  let started: Step[] = [];
  let stopping: Promise<void> | undefined;

  return {
    parts,
    deployment,
    http,
    internalHttp,
    steps,
    get apiUrl() {
      if (apiUrl === undefined) throw new Error("Sluice is not listening");
      return apiUrl;
    },
    get internalApiUrl() {
      if (internalApiUrl === undefined) throw new Error("Sluice is not listening");
      return internalApiUrl;
    },
    get metricsUrl() {
      if (metricsUrl === undefined) throw new Error("Sluice is not listening");
      return metricsUrl;
    },
    async start() {
      for (const step of steps) {
        await step.start();
        started = [...started, step];
      }
      logger.info(
        {
          apiUrl,
          internalApiUrl,
          internalApiAuth: env.INTERNAL_API_AUTH,
          database: database.kind,
          chainId: deployment?.deployment.chainId,
        },
        // The internal API's guard (INTERNAL_API_AUTH) is in the line: operators see what protects it.
        "sluice is serving",
      );
    },
    stop() {
      stopping ??= (async () => {
        await stopInReverse(started, logger);
        stopInvalidating();
        stopCountingOrders();
        logger.info("stopped");
      })();
      return stopping;
    },
  };
}

/** The deployment's points engine as `sluice points engine status|backfill` beside this server reach it. */
function adminPointsEngine(database: Database, parts: PointsEngineParts): AdminPointsEngine {
  return {
    status: () =>
      engineStatusText(database, {
        config: parts.config,
        confirmations: parts.confirmations,
        head: () => parts.chain.headNumber(),
      }),
    backfill: (options) => parts.engine.runBackfill(options),
  };
}

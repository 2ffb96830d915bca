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
// Registered here too: GET /ready's checks (serving, database, migrations, and for a deployment the chain head and the
// indexer as a chain follower; src/readiness) and the operations gauges on /metrics (http/operations-metrics.ts). A
// part built later adds its own check to `parts.readiness`, or itself to `parts.followers` when it follows the chain.
//
// start(): listen (both) → bind the stored swap state to the chain → start the workers (block tracker, indexer, discount
// expiry). stop(), in reverse, once: /health turns 503 for SHUTDOWN_GRACE_MS → both HTTP servers close (in-flight
// requests finish; SHUTDOWN_TIMEOUT_MS bounds it; the last quote rounds are stored) → the workers stop, last
// started first, then what was running before the root (the devnet's bundled solvers, then anvil) → the database
// closes. The whole stop is bounded once, by the signal handler (shutdown.ts, src/cli/signals.ts).
import { AdminGuard } from "../admin/token.ts";
import { type Clock, systemClock } from "../clock.ts";
import { checkInternalListener, DEFAULT_INTERNAL_PORT, type Env, httpTimeouts } from "../config/env.ts";
import type { Database } from "../db/client.ts";
import { ConnectionBudget } from "../db/connection-budget.ts";
import { DemoPage } from "../demo-page/assets.ts";
import { DevRpcRelay } from "../devnet/rpc-relay.ts";
import { internalAllowedHosts } from "../http/host-guard.ts";
import { Lifecycle, servingCheck } from "../http/lifecycle.ts";
import { createHttpMetrics, type HttpMetrics, registerCooldownGauge } from "../http/metrics.ts";
import { documentExamples } from "../http/openapi-examples.ts";
import { registerOperationsGauges } from "../http/operations-metrics.ts";
import type { DeploymentServices } from "../http/routes.ts";
import { sluiceRoutes } from "../http/routes.ts";
import { API_PREFIX, type App, buildServer } from "../http/server.ts";
import { StreamConnections } from "../http/stream-connections.ts";
import { readIndexerProgress } from "../indexer/progress.ts";
import type { Logger } from "../logger.ts";
import { OrderEventRetention } from "../orders/event-retention.ts";
import { readShortList } from "../orders/list.ts";
import { OpenOrdersCache } from "../orders/open-orders-cache.ts";
import { OrderEvents } from "../orders/order-events.ts";
import { OrderFeed } from "../orders/order-feed.ts";
import { OrderStreams } from "../orders/order-stream.ts";
import { readOverdueOrders } from "../orders/overdue.ts";
import { PointsRepository } from "../points/repository.ts";
import { PointsService } from "../points/service.ts";
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
import { stopInReverse, type Worker } from "./workers.ts";

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
  /** Default process metrics (CPU, memory, event loop) on /metrics (default true). */
  collectProcessMetrics?: boolean;
  /**
   * Parts already running when the root is built, in the order they started (the devnet's anvil, then its bundled
   * solvers): stopped after the root's own workers, last started first.
   */
  running?: Array<Pick<Worker, "name" | "stop">>;
  /**
   * This run's admin token (src/admin/token.ts): with it, and a deployment with a solver store, the internal listener
   * serves the admin routes that add and remove solvers (the devnet's `sluice devnet add-solver`).
   */
  adminToken?: string;
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
  /** The root's workers, in start order. */
  workers: readonly Worker[];
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
    points: new PointsService(new PointsRepository(database), database, clock),
    solverLogos,
    orderEvents,
    openOrders,
    orderFeed: new OrderFeed(database, orderEvents, logger.child({ worker: "order-feed" })),
    streamConnections: new StreamConnections({
      maxConnections: env.STREAM_MAX_CONNECTIONS,
      maxPerIp: env.STREAM_MAX_PER_IP,
      maxPerSolver: env.STREAM_MAX_PER_SOLVER,
    }),
    readiness,
    followers,
    metrics,
  };

  const deployment = options.deployment
    ? buildDeploymentParts(options.deployment, {
        database,
        clock,
        logger,
        solverLogos,
        orderEvents,
        solverActivity: metrics.solvers,
        onRpcError: (method, kind) => metrics.rpcErrors.inc({ method, kind }),
      })
    : undefined;
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
    orders: deployment.orders.service,
    auctions: deployment.auctions,
    cancel: deployment.orders.cancel,
    database,
    openOrders,
    orderStreams: {
      streams: new OrderStreams(database, parts.orderFeed, {
        budget: new ConnectionBudget(env.STREAM_DB_CONNECTIONS),
        onError: (error) =>
          logger.warn({ err: error }, "order stream ended by a failed read; its client resumes"),
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
    ...(options.adminToken && deployment.registry
      ? { admin: { guard: new AdminGuard(options.adminToken), solvers: deployment.registry } }
      : {}),
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
    routes: routes.filter((r) => r.listener === "public"),
  });
  const internalHttp = await buildServer({
    ...serverOptions,
    routes: routes.filter((r) => r.listener === "internal"),
    internal: { allowedHosts: internalAllowedHosts(env.INTERNAL_HOST, env.INTERNAL_ALLOWED_HOSTS) },
  });

  // Rounds answered but not yet stored are written before the server's close completes (and so before the database
  // closes), however the server is closed.
  if (deployment) http.addHook("onClose", () => deployment.quotes.roundWriter.drain());
  // Order streams never finish by themselves: they end as the server starts closing, however it is closed, and
  // their clients resume on another replica.
  http.addHook("preClose", (done) => {
    parts.streamConnections.endAll();
    done();
  });

  // The order log's reader starts before the listener (a stream subscribes to it) and stops last; its pruning
  // starts before the deployment's workers.
  const retention = new OrderEventRetention(
    database,
    clock,
    logger.child({ worker: "order-log-retention" }),
    env.STREAM_RETENTION_HOURS * 3600 * 1000,
  );
  const workers: readonly Worker[] = deployment
    ? [
        { name: "order log retention", start: () => retention.start(), stop: () => retention.stop() },
        ...deployment.workers,
      ]
    : [];
  let apiUrl: string | undefined;
  let internalApiUrl: string | undefined;
  let started: Array<Pick<Worker, "name" | "stop">> = [...(options.running ?? [])];
  let stopping: Promise<void> | undefined;

  return {
    parts,
    deployment,
    http,
    internalHttp,
    workers,
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
      if (deployment) {
        await parts.orderFeed.start();
        started = [...started, { name: "order feed", stop: () => parts.orderFeed.stop() }];
        // Read before the listener opens: no auction may ask a solver that is in cooldown.
        await deployment.cooldowns.view.start();
        started = [...started, { name: "solver cooldowns", stop: () => deployment.cooldowns.view.stop() }];
      }
      if (options.listen ?? true) {
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
      }
      await deployment?.bindChain();
      for (const worker of workers) {
        await worker.start();
        started = [...started, worker];
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
        lifecycle.startDraining();
        // Load balancers see /health turn 503 during the grace period and stop routing here before the listener goes.
        if (env.SHUTDOWN_GRACE_MS > 0)
          await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_GRACE_MS));
        logger.info("draining: finishing in-flight requests");
        // close() stops the listener and waits for in-flight requests; /health answers 503 meanwhile.
        await Promise.all([http.close(), internalHttp.close()]);
        await stopInReverse(started, logger);
        stopInvalidating();
        stopCountingOrders();
        if (closeDatabase) await database.close();
        logger.info("stopped");
      })();
      return stopping;
    },
  };
}

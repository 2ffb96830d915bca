// The composition root of `sluice serve`: database, demo data, workers, HTTP server, and an orderly shutdown.
import { systemClock } from "./clock.ts";
import { type Env, httpTimeouts } from "./config/env.ts";
import { type Database, databaseOptionsFromEnv, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { seedDemoData } from "./demo/seed.ts";
import { INTERNAL_API_PREFIX, internalDiscountRoutes } from "./discounts/internal-routes.ts";
import { discountRoutes } from "./discounts/routes.ts";
import type { AppContext } from "./http/context.ts";
import { Lifecycle } from "./http/lifecycle.ts";
import { type App, buildServer, type ServerOptions } from "./http/server.ts";
import { liquidityRoutes } from "./liquidity/routes.ts";
import type { Logger } from "./logger.ts";
import { ordersRoutes } from "./orders/routes.ts";
import { swapRoutes } from "./swap/routes.ts";
import type { SwapRuntime } from "./swap/runtime.ts";

export interface Service {
  app: App;
  database: Database;
  lifecycle: Lifecycle;
  /** The base URL the API listens on, e.g. `http://127.0.0.1:8080/api/v1`. */
  apiUrl: string;
  /** Drains and stops everything; resolves once the database is closed. Idempotent. */
  shutdown(): Promise<void>;
}

export interface ServiceOptions {
  env: Env;
  logger: Logger;
  serverOptions?: ServerOptions;
  /** An already open database (tests); by default the one the environment names is opened and migrated. */
  database?: Database;
  /** The given database has been through `prepareDatabase` already (the devnet does it while anvil starts). */
  databasePrepared?: boolean;
  /** Background workers started after the server listens and stopped before the database closes. */
  workers?: Array<{ name: string; stop(): Promise<void> }>;
  /** The swap flow of a deployment, built on the service's database; without it only the partner API is served. */
  swap?: (database: Database) => SwapRuntime | Promise<SwapRuntime>;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { env, logger, serverOptions, workers = [] } = options;
  const database =
    options.database ??
    (await openDatabase(databaseOptionsFromEnv(env, env.DATA_DIR, { role: "server", logger })));
  if (!options.databasePrepared) await prepareDatabase(database, env, logger);

  const swap = options.swap ? await options.swap(database) : undefined;
  const lifecycle = new Lifecycle();
  const context: AppContext = { database, clock: systemClock, logger, lifecycle, publicUrl: env.PUBLIC_URL };
  const swapPlugins = swap
    ? [
        async (api: App) => {
          await api.register(swapRoutes, {
            swap: swap.context,
            orderEvents: swap.orderEvents,
            publicUrl: env.PUBLIC_URL,
          });
          await api.register(ordersRoutes, { database, orderEvents: swap.orderEvents, clock: context.clock });
          await api.register(liquidityRoutes, { swap: swap.context });
          await api.register(discountRoutes, { service: swap.discounts.service });
        },
      ]
    : [];
  const app = await buildServer(context, {
    collectProcessMetrics: true,
    timeouts: httpTimeouts(env),
    ...serverOptions,
    plugins: [...swapPlugins, ...(serverOptions?.plugins ?? [])],
  });
  // The internal solvers' discount API lives outside /api/v1 and its OpenAPI document.
  if (swap) {
    await app.register(internalDiscountRoutes, {
      prefix: INTERNAL_API_PREFIX,
      discounts: swap.discounts.solverDiscounts,
      solvers: swap.context.solvers,
    });
  }
  await app.listen({ port: env.PORT, host: env.HOST });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const apiUrl = `http://127.0.0.1:${port}/api/v1`;
  await swap?.start();
  logger.info(
    { apiUrl, database: database.kind, chainId: swap?.context.deployment.chainId },
    "sluice is serving",
  );

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      lifecycle.startDraining();
      // Load balancers see /health turn 503 during the grace period and stop routing here before the listener goes.
      if (env.SHUTDOWN_GRACE_MS > 0)
        await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_GRACE_MS));
      logger.info("draining: finishing in-flight requests");
      // close() stops the listener and waits for in-flight requests; /health answers 503 meanwhile.
      await app.close();
      await swap?.stop().catch((error: unknown) => logger.error({ err: error }, "swap runtime stop failed"));
      for (const worker of workers) {
        await worker
          .stop()
          .catch((error: unknown) => logger.error({ err: error, worker: worker.name }, "worker stop failed"));
      }
      await database.close();
      logger.info("stopped");
    })();
    return stopping;
  };

  return { app, database, lifecycle, apiUrl, shutdown };
}

/**
 * Migrates the database and, when demo data is on (by default without DATABASE_URL), loads the demo registry and
 * points into an empty dataset. Needs nothing but the database, so the devnet runs it while anvil starts.
 */
export async function prepareDatabase(database: Database, env: Env, logger: Logger): Promise<void> {
  // Migrations and imports run without the request connections' statement timeout.
  await migrate(database.maintenance);
  const demoEnabled = env.SLUICE_DEMO_DATA ? env.SLUICE_DEMO_DATA === "1" : !env.DATABASE_URL;
  if (demoEnabled)
    await seedDemoData(database.maintenance, {
      logger,
      registryDir: env.DEMO_REGISTRY_DIR,
      iconBaseUrl: env.REGISTRY_ICON_BASE_URL,
    });
}

/** After the HTTP part of a shutdown, the longest the workers, the bundled solvers, anvil and the database may take. */
export const STOP_TIMEOUT_MS = 20_000;

/** The longest a shutdown may take in all: the grace period, the HTTP close, then stopping everything else. */
export function shutdownBoundMs(env: Pick<Env, "SHUTDOWN_GRACE_MS" | "SHUTDOWN_TIMEOUT_MS">): number {
  return env.SHUTDOWN_GRACE_MS + env.SHUTDOWN_TIMEOUT_MS + STOP_TIMEOUT_MS;
}

export interface ExitOnSignalsOptions {
  /** A shutdown still running this long after it was requested is abandoned: logged, and exit 1. */
  deadlineMs?: number;
  exit?: (code: number) => void;
  signals?: Pick<NodeJS.EventEmitter, "once">;
}

/**
 * Turns SIGTERM/SIGINT into a graceful shutdown and exit 0 (exit 1 if shutdown itself fails, or outlives
 * `deadlineMs`: a database that stopped answering must not keep a stopping process alive). Takes the service as a
 * promise so the handlers can be installed before it starts: a signal during start-up waits for it, then shuts down.
 * Returns the same shutdown for other reasons to stop the process (an orphaned server); only the first request counts.
 */
export function exitOnSignals(
  service: Pick<Service, "shutdown"> | Promise<Pick<Service, "shutdown">>,
  logger: Logger,
  options: ExitOnSignalsOptions = {},
): (reason: string) => void {
  const { deadlineMs, exit = (code) => process.exit(code), signals = process } = options;
  let requested = false;
  const stop = (why: { signal: NodeJS.Signals } | { reason: string }) => {
    if (requested) return;
    requested = true;
    logger.info(why, "shutdown requested");
    if (deadlineMs !== undefined) {
      setTimeout(() => {
        logger.error({ deadlineMs }, "shutdown did not finish in time: exiting");
        exit(1);
      }, deadlineMs).unref();
    }
    Promise.resolve(service)
      .then((started) => started.shutdown())
      .then(
        () => exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          exit(1);
        },
      );
  };
  signals.once("SIGTERM", (signal: NodeJS.Signals) => stop({ signal }));
  signals.once("SIGINT", (signal: NodeJS.Signals) => stop({ signal }));
  return (reason) => stop({ reason });
}

// `sluice serve` without a deployment (and `sluice devnet`): the devnet chain, its bundled solvers (and those `sluice
// devnet add-solver` added, kept in the data directory), then the composition root on their deployment with the dev
// helpers and the admin routes on, then the demo discount published through the API.
// The chain and the database start side by side. Stopping is the root's: the API drains, the root's workers stop,
// then the bundled solvers, then anvil (which writes its state file), then the database.
import { adminTokenPath, writeAdminToken } from "../admin/token.ts";
import { createChainPublicClient } from "../chain/client.ts";
import type { Env } from "../config/env.ts";
import {
  type Database,
  type DatabaseOptions,
  databaseOptionsFromEnv,
  lockEmbeddedDatabase,
  openDatabase,
} from "../db/client.ts";
import { type DemoDiscount, publishDemoDiscount } from "../demo/discount.ts";
import { AddedSolverFile } from "../devnet/added-solvers.ts";
import type { DevnetRun } from "../devnet/banner.ts";
import { devnetDeployment } from "../devnet/deployment.ts";
import {
  type BundledSolvers,
  type DevnetChain,
  startBundledSolvers,
  startDevnetChain,
} from "../devnet/devnet.ts";
import { type PointsActivity, startPointsActivity } from "../devnet/points-activity.ts";
import { pointsPlan } from "../devnet/points-plan.ts";
import { addDevnetPointsRegistry } from "../devnet/points-registry.ts";
import type { Logger } from "../logger.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";
import { prepareDatabase } from "./database.ts";
import { type PortReservation, reachableHost, reservePort } from "./listen-address.ts";
import { buildSluice, type Sluice } from "./sluice.ts";

export interface DevnetSluiceOptions {
  env: Env;
  logger: Logger;
  /** An already open database (tests); by default the one the environment names. */
  database?: Database;
  /** Pause between the points activity's steps (tests play it fast); default points-activity.ts's. */
  pointsActivityStepMs?: number;
}

export interface DevnetSluice extends DevnetRun {
  sluice: Sluice;
  chain: DevnetChain;
  /** The bundled solvers and the Deployment the server runs on. */
  bundled: BundledSolvers;
  /** The discount published at this start; null when POST /discount refused it (logged). */
  demoDiscount: DemoDiscount | null;
  /** The scripted staking activity of this run's first minutes (src/devnet/points-activity.ts). */
  pointsActivity: PointsActivity;
}

export async function startDevnetSluice(options: DevnetSluiceOptions): Promise<DevnetSluice> {
  const { env } = options;
  // The bundled solvers poll the API for won orders, so they must know its URL before it listens; with PORT=0
  // the port is chosen here (the OS's choice of a free one) instead of inside listen().
  // Held until the listeners bind (released just before, by the root): the URLs handed out early stay true.
  const reserved: PortReservation[] = [];
  const reserve = async (host: string) => {
    const reservation = await reservePort(host);
    reserved.push(reservation);
    return reservation.port;
  };
  const releasePorts = async () => {
    await Promise.all(reserved.map((reservation) => reservation.release()));
  };
  try {
    const port = env.PORT === 0 ? await reserve(env.HOST) : env.PORT;
    // The internal listener takes INTERNAL_PORT when it is set, else a free port (two devnets can run side by side);
    // either way it is printed and written to endpoints.json.
    const internalPort =
      env.INTERNAL_PORT === undefined || env.INTERNAL_PORT === 0
        ? await reserve(env.INTERNAL_HOST)
        : env.INTERNAL_PORT;
    return await startOnPorts(options, { port, internalPort, beforeListen: releasePorts });
  } catch (error) {
    // A start that failed anywhere frees what it held (a release is idempotent: the listeners may have bound).
    await releasePorts();
    throw error;
  }
}

async function startOnPorts(
  options: DevnetSluiceOptions,
  ports: { port: number; internalPort: number; beforeListen: () => Promise<void> },
): Promise<DevnetSluice> {
  const { env, logger } = options;
  const { port, internalPort } = ports;
  const apiUrl = `http://${reachableHost(env.HOST)}:${port}/api/v1`;
  const internalApiUrl = `http://${reachableHost(env.INTERNAL_HOST)}:${internalPort}/api-internal/v1`;

  // The embedded database's directory is locked before anything starts: a second process on this DATA_DIR stops
  // here, having started (and written) nothing.
  const databaseTarget =
    options.database ??
    lockEmbeddedDatabase(databaseOptionsFromEnv(env, env.DATA_DIR, { role: "server", logger }));
  // The chain and the database (opened, migrated, demo data loaded) start side by side: neither needs the other
  // until the root is built, and together they are most of the start-up time.
  const [opened, started] = await Promise.allSettled([
    openAndPrepareDatabase(databaseTarget, env, logger),
    startDevnetChain({ dataDir: env.DATA_DIR, logger }),
  ]);
  if (opened.status === "rejected" || started.status === "rejected") {
    if (opened.status === "fulfilled") await opened.value.close();
    if (started.status === "fulfilled") await started.value.stop();
    throw opened.status === "rejected" ? opened.reason : (started as PromiseRejectedResult).reason;
  }
  const database = opened.value;
  const chain = started.value;

  // The bundled solvers start before the API listens (the deployment names their endpoints); they poll it after.
  let markListening = () => {};
  const apiListening = new Promise<void>((resolve) => {
    markListening = resolve;
  });
  let bundled: BundledSolvers | undefined;
  let sluice: Sluice | undefined;
  let activity: PointsActivity | undefined;
  try {
    // The solvers added earlier that still fill on this chain; the file is the running server's from here on, and
    // each change to it rewrites deployment.json too.
    const addedSolvers = new AddedSolverFile(chain.files.addedSolvers, chain.core.reactor, (added) => {
      if (bundled)
        writeJsonAtomically(
          chain.files.deployment,
          devnetDeployment({
            core: chain.core,
            points: chain.points,
            solverEndpoints: bundled.solverEndpoints,
            added,
          }),
        );
    });
    const added = await addedSolvers.load(
      createChainPublicClient({ chainId: chain.chainId, rpcUrls: chain.rpcUrl, cacheTimeMs: 0 }),
      logger,
    );
    // Started once the database is migrated and seeded, just before the server listens: the solvers start polling
    // the API moments before it answers, not through the whole database start.
    const solvers = await startBundledSolvers(chain, { apiUrl, internalApiUrl, apiListening, logger, added });
    bundled = solvers;
    sluice = await buildSluice({
      env: { ...env, PORT: port, INTERNAL_PORT: internalPort },
      beforeListen: ports.beforeListen,
      logger,
      database,
      databasePrepared: true,
      closeDatabase: true,
      deployment: {
        deployment: solvers.deployment,
        chainIdentity: chain.identity,
        rpcUrls: [chain.rpcUrl],
        ...devnetHeads(env, chain.rpcUrl),
        protocolSigner: chain.protocolSigner,
        solverSecrets: solvers.solverSecrets,
        faucet: chain.faucet,
        demoSwapper: chain.accounts.demo[0]!.account.address,
        solverStore: addedSolvers,
      },
      // A fresh token each start, for the local operator's commands beside it (src/admin/token.ts).
      admin: { token: writeAdminToken(adminTokenPath(env.DATA_DIR)), dataDir: env.DATA_DIR },
      running: [
        {
          name: "anvil",
          // The points activity (started below, once the API serves) sends to anvil: it stops first.
          stop: async () => {
            await activity?.stop();
            await chain.stop();
          },
        },
        { name: "bundled solvers", stop: () => solvers.stop() },
      ],
    });
    // Once the API drains, a poll would meet a closing listener: the solvers stop polling first.
    sluice.parts.lifecycle.onDrain(() => void solvers.stopFilling());
    await sluice.start();
    markListening();
    // The RPC port changes every run: scripts read this run's endpoints from the data directory.
    writeJsonAtomically(chain.files.endpoints, {
      apiUrl: sluice.apiUrl,
      internalApiUrl: sluice.internalApiUrl,
      metricsUrl: sluice.metricsUrl,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
    });
    const demoDiscount = await publishDemoDiscountLogged(sluice.apiUrl, chain, logger);
    // In the background, so the points have something to follow from the first minutes of every run.
    activity = startPointsActivity({
      publicClient: createChainPublicClient({
        chainId: chain.chainId,
        rpcUrls: chain.rpcUrl,
        cacheTimeMs: 0,
      }),
      rpcUrl: chain.rpcUrl,
      plan: chain.points.plan,
      logger,
      ...(options.pointsActivityStepMs !== undefined ? { stepIntervalMs: options.pointsActivityStepMs } : {}),
    });
    return {
      sluice,
      apiUrl: sluice.apiUrl,
      internalApiUrl: sluice.internalApiUrl,
      metricsUrl: sluice.metricsUrl,
      chain,
      bundled: solvers,
      demoDiscount,
      pointsActivity: activity,
    };
  } catch (error) {
    // Once built, the root stops everything (the solvers, anvil, the database); before, it is done here.
    if (sluice) {
      await sluice.stop().catch(() => {});
    } else {
      await bundled?.stop().catch(() => {});
      await chain.stop();
      await database.close().catch(() => {});
    }
    throw error;
  }
}

/**
 * Where the devnet's heads come from: anvil serves WebSocket on its HTTP port, so they are pushed, not polled, unless
 * RPC_WS_URL names another endpoint, or is `off` (polled every BLOCK_POLL_MS, as a deployment without one is).
 */
export function devnetHeads(env: Pick<Env, "RPC_WS_URL">, rpcUrl: string): { webSocketUrl?: string } {
  if (env.RPC_WS_URL === "off") return {};
  return { webSocketUrl: env.RPC_WS_URL ?? rpcUrl.replace(/^http/, "ws") };
}

/** Opens (unless given an open database) and prepares the service's database. */
async function openAndPrepareDatabase(
  target: Database | DatabaseOptions,
  env: Env,
  logger: Logger,
): Promise<Database> {
  const given = "db" in target;
  const database = given ? target : await openDatabase(target);
  try {
    await prepareDatabase(database, env, logger);
    // After the demo registry (which loads only into an empty one): the devnet's own entities beside it.
    await addDevnetPointsRegistry(database.maintenance, pointsPlan(), logger);
  } catch (error) {
    // Only a database opened here is closed here; a given one belongs to the caller.
    if (!given) await database.close().catch(() => {});
    throw error;
  }
  return database;
}

/**
 * The demo discount, through the API that now listens (validated like any other). A refusal is logged and the devnet
 * runs on without it: everything else works, and the log says why the banner shows none.
 */
async function publishDemoDiscountLogged(
  apiUrl: string,
  chain: DevnetChain,
  logger: Logger,
): Promise<DemoDiscount | null> {
  try {
    const published = await publishDemoDiscount({
      apiUrl,
      chainId: chain.chainId,
      publicClient: createChainPublicClient({
        chainId: chain.chainId,
        rpcUrls: chain.rpcUrl,
        cacheTimeMs: 0,
      }),
      adapter: chain.core.adapters.usd,
      tokenToRedeem: chain.core.tokens.rwa,
      curator: chain.accounts.curator.account,
      protocol: chain.protocolSigner.address,
    });
    const { discount } = published;
    logger.info(
      {
        discountId: published.discountId,
        adapter: published.adapter,
        tokenToRedeem: discount.tokenToRedeem,
        discountPpm: Number(discount.discount),
        signer: discount.signer,
        nonce: discount.nonce.toString(),
        deadline: discount.deadline,
      },
      "devnet: demo discount published",
    );
    return published;
  } catch (error) {
    logger.error({ err: error }, "devnet: the demo discount was not published");
    return null;
  }
}

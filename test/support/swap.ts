// A swap-flow Sluice around a test chain: a Deployment for the core contracts, scripted or real solvers, built by the
// composition root on a given test database.
import type { Address } from "viem";
import type { DeploymentParts } from "../../src/app/deployment.ts";
import { buildSluice, type Sluice } from "../../src/app/sluice.ts";
import type { Clock } from "../../src/clock.ts";
import { readEnv } from "../../src/config/env.ts";
import type { Database } from "../../src/db/client.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  type Deployment,
  type SolverConfig,
} from "../../src/deployment/schema.ts";
import type { DevFaucet } from "../../src/devnet/faucet.ts";
import type { App } from "../../src/http/server.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import type { Market } from "../../src/market/market.ts";
import type { OrderEvents } from "../../src/orders/order-events.ts";
import type { TestChain } from "./anvil.ts";
import { TEST_LIMITS_ENV } from "./limits.ts";

export interface TestSolver {
  id: string;
  endpoint: string;
  filler?: Address;
  internal?: boolean;
  enabled?: boolean;
  logo?: string;
  secret?: string;
  /** In-flight quote requests it takes from one replica (32 by default). */
  maxConcurrentRequests?: number;
  /** The order records its polls get when they do not say (`view`). */
  ordersView?: "sluice" | "rfq-backend";
}

export const MIN_QUOTE_AMOUNT = 1_000_000_000_000n; // 1e-6 tRWA

export function testDeployment(
  chain: TestChain,
  solvers: readonly TestSolver[],
  overrides: Partial<Deployment> = {},
): Deployment {
  const { core } = chain;
  const solverConfigs: Array<Omit<SolverConfig, "enabled"> & { enabled?: boolean }> = solvers.map(
    (solver) => ({
      id: solver.id,
      name: solver.id,
      endpoint: solver.endpoint,
      filler: solver.filler ?? core.executors[0]!,
      internal: solver.internal ?? false,
      enabled: solver.enabled ?? true,
      ...(solver.logo ? { logo: solver.logo } : {}),
      sharedSecretEnv: `SOLVER_${solver.id.toUpperCase()}_SECRET`,
      maxConcurrentRequests: solver.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
      ...(solver.ordersView ? { ordersView: solver.ordersView } : {}),
    }),
  );
  return parseDeployment(
    {
      name: "test",
      chainId: chain.chainId,
      chainName: "anvil",
      local: true,
      reactor: core.reactor,
      executors: core.executors,
      adapterFactory: core.adapterFactory,
      protocolSigner: chain.accounts.protocol.address,
      inputTokens: [
        {
          address: core.tokens.rwa,
          symbol: "tRWA",
          name: "Sluice Test RWA",
          decimals: 18,
          minQuoteAmount: MIN_QUOTE_AMOUNT.toString(),
          liquidityOutputToken: core.tokens.usd,
        },
      ],
      outputTokens: [
        { address: core.tokens.usd, symbol: "tUSD", name: "Sluice Test USD", decimals: 6 },
        { address: core.tokens.usdt, symbol: "tUSDT", name: "Sluice Test Tether USD", decimals: 6 },
      ],
      adapters: [{ address: core.adapters.usd }, { address: core.adapters.usdt }],
      solvers: solverConfigs,
      confirmationDepth: 0,
      startBlock: Number(core.startBlock),
      ...overrides,
    },
    "test deployment",
  );
}

export interface SwapTestApp {
  /** The public listener's server (/api/v1). */
  app: App;
  /** The internal listener's server (/api-internal/v1, /metrics), as INTERNAL_API_AUTH guards it. */
  internal: App;
  /** The whole Sluice, as the composition root built it. */
  sluice: Sluice;
  /** The swap flow's parts, as tests drive them. */
  runtime: SwapTestRuntime;
  deployment: Deployment;
  /** Waits until the runtime's view of the chain head is the chain's latest block (after mining or a revert). */
  syncHead(): Promise<void>;
  /** Stops the Sluice (the server, then the workers it started); the test's database stays open. */
  close(): Promise<void>;
}

/** The deployment's parts tests reach for, and the root's start (chain binding and workers, no listener). */
export interface SwapTestRuntime {
  context: Market;
  blocks: DeploymentParts["blocks"];
  indexer: DeploymentParts["indexer"];
  discounts: DeploymentParts["discounts"];
  /** The new heads the block tracker, the indexer and the discount worker wake on (started by `start`). */
  heads: DeploymentParts["heads"];
  orderEvents: OrderEvents;
  /** Binds the stored swap state to the chain and starts the block tracker, the indexer and the discount worker. */
  start(): Promise<void>;
}

export interface SwapTestAppOptions {
  solvers: readonly TestSolver[];
  clock: Clock;
  /** Changes to `testDeployment(chain, solvers)`, the deployment served by default. */
  deployment?: Partial<Deployment>;
  /** A complete deployment to serve instead (e.g. the liquidity worked example's). */
  servedDeployment?: Deployment;
  /** The RPC endpoint the server uses (default: the chain's anvil), e.g. a relay the test controls. */
  rpcUrl?: string;
  /** Several RPC endpoints, tried in order (RPC_URLS); wins over `rpcUrl`. */
  rpcUrls?: readonly string[];
  /** How long one RPC URL gets to answer one request (RPC_TIMEOUT_MS). */
  rpcTimeoutMs?: number;
  /** RPC_WS_URL: new heads pushed from there once started (by default they are polled every 20 ms). */
  webSocketUrl?: string;
  /** How often a started runtime's indexer polls (default 1000 ms). */
  indexerPollIntervalMs?: number;
  /** Run the indexer once started (default true). */
  indexer?: boolean;
  /** The dev helpers' faucet (by default none: they answer 403 DEV_ONLY). */
  faucet?: DevFaucet;
  /** INTERNAL_API_AUTH (default `solver-secret`). */
  internalAuth?: "solver-secret" | "network";
  /** Where the Sluice logs (default: nowhere). */
  logger?: Logger;
  /** Environment variables on top of the test environment: its request limits are TEST_LIMITS_ENV's by default. */
  env?: Record<string, string>;
}

/**
 * A Sluice on a deployment, built by the composition root as `sluice serve` builds it — /quote, /order, /orders,
 * /liquidity, /discount and the dev helpers under /api/v1 (`app`), the internal discount API under /api-internal/v1
 * on the internal listener's server (`internal`) — on a
 * test database, every part on the test's clock. Solver secrets are `secret-<id>` unless a solver names its own. It
 * is not started: no indexer, block poller or discount worker runs (the head is read on demand), so a test drives
 * whichever of them it asserts on, or starts them all (`runtime.start()`).
 */
export async function createSwapTestApp(
  chain: TestChain,
  database: Database,
  options: SwapTestAppOptions,
): Promise<SwapTestApp> {
  const deployment = options.servedDeployment ?? testDeployment(chain, options.solvers, options.deployment);
  const sluice = await buildSluice({
    env: readEnv({
      SLUICE_DEMO_DATA: "0",
      ...TEST_LIMITS_ENV,
      INTERNAL_API_AUTH: options.internalAuth ?? "solver-secret",
      ...options.env,
    }),
    logger: options.logger ?? silentLogger(),
    clock: options.clock,
    database,
    databasePrepared: true,
    listen: false,
    collectProcessMetrics: false,
    deployment: {
      deployment,
      rpcUrls: options.rpcUrls ?? [options.rpcUrl ?? chain.rpcUrl],
      ...(options.rpcTimeoutMs !== undefined ? { rpcTimeoutMs: options.rpcTimeoutMs } : {}),
      protocolSigner: chain.accounts.protocol,
      solverSecrets: new Map(
        options.solvers.map((solver) => [solver.id, solver.secret ?? `secret-${solver.id}`]),
      ),
      // Tests mine blocks by hand; poll fast so a new block is seen at once.
      blockPollIntervalMs: 20,
      headPollMs: 20,
      ...(options.webSocketUrl ? { webSocketUrl: options.webSocketUrl } : {}),
      ...(options.indexerPollIntervalMs !== undefined
        ? { indexerPollIntervalMs: options.indexerPollIntervalMs }
        : {}),
      ...(options.indexer !== undefined ? { indexer: options.indexer } : {}),
      ...(options.faucet ? { faucet: options.faucet } : {}),
    },
  });
  const parts = sluice.deployment!;
  // The order stream's log reader runs from the start (the root starts it in start(), which these tests may not
  // call), so streams get live events; the close below stops it.
  await sluice.parts.orderFeed.start();
  await sluice.http.ready();
  await sluice.internalHttp.ready();
  return {
    app: sluice.http,
    internal: sluice.internalHttp,
    sluice,
    runtime: {
      context: parts.market,
      blocks: parts.blocks,
      indexer: parts.indexer,
      discounts: parts.discounts,
      heads: parts.heads,
      orderEvents: sluice.parts.orderEvents,
      start: () => sluice.start(),
    },
    deployment,
    async syncHead() {
      const latest = await chain.publicClient.getBlock({ blockTag: "latest" });
      for (;;) {
        const head = await parts.blocks.latest();
        if (head.hash === latest.hash) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: async () => {
      await sluice.stop();
      await sluice.parts.orderFeed.stop();
    },
  };
}

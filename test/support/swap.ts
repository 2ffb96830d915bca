// A swap-flow server around a test chain: a Deployment for the core contracts, scripted or real solvers, the swap
// runtime and the HTTP routes, on a given test database.
import type { Address } from "viem";
import type { Clock } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import type { Deployment, SolverConfig } from "../../src/deployment/schema.ts";
import { INTERNAL_API_PREFIX, internalDiscountRoutes } from "../../src/discounts/internal-routes.ts";
import { discountRoutes } from "../../src/discounts/routes.ts";
import { Lifecycle } from "../../src/http/lifecycle.ts";
import { type App, buildServer, type ServerOptions } from "../../src/http/server.ts";
import { liquidityRoutes } from "../../src/liquidity/routes.ts";
import { silentLogger } from "../../src/logger.ts";
import { ordersRoutes } from "../../src/orders/routes.ts";
import { swapRoutes } from "../../src/swap/routes.ts";
import { createSwapRuntime, type SwapRuntime } from "../../src/swap/runtime.ts";
import type { TestChain } from "./anvil.ts";

export interface TestSolver {
  id: string;
  endpoint: string;
  filler?: Address;
  internal?: boolean;
  enabled?: boolean;
  logo?: string;
  secret?: string;
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
  app: App;
  runtime: SwapRuntime;
  deployment: Deployment;
  /** Waits until the runtime's view of the chain head is the chain's latest block (after mining or a revert). */
  syncHead(): Promise<void>;
  /** Stops the runtime, then the server. */
  close(): Promise<void>;
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
  /** How often a started runtime's indexer polls (default 1000 ms). */
  indexerPollIntervalMs?: number;
  /** More route plugins under /api/v1 (e.g. the dev helpers). */
  plugins?: ServerOptions["plugins"];
}

/**
 * A Sluice server as `startService` mounts it for a deployment — /quote, /order, /orders, /liquidity, /discount
 * under /api/v1 and the internal discount API under /api-internal/v1 — with its swap runtime, on a test database.
 * Solver secrets are `secret-<id>` unless a solver names its own. The runtime is not started: no indexer, block
 * poller or discount worker runs (the head is read on demand), so a test drives whichever of them it asserts on.
 */
export async function createSwapTestApp(
  chain: TestChain,
  database: Database,
  options: SwapTestAppOptions,
): Promise<SwapTestApp> {
  const deployment = options.servedDeployment ?? testDeployment(chain, options.solvers, options.deployment);
  const logger = silentLogger();
  const runtime = createSwapRuntime({
    deployment,
    rpcUrls: [options.rpcUrl ?? chain.rpcUrl],
    protocolSigner: chain.accounts.protocol,
    solverSecrets: new Map(
      options.solvers.map((solver) => [solver.id, solver.secret ?? `secret-${solver.id}`]),
    ),
    database,
    clock: options.clock,
    logger,
    // Tests mine blocks by hand; poll fast so a new block is seen at once.
    blockPollIntervalMs: 20,
    ...(options.indexerPollIntervalMs !== undefined
      ? { indexerPollIntervalMs: options.indexerPollIntervalMs }
      : {}),
  });
  const app = await buildServer(
    { database, clock: options.clock, logger, lifecycle: new Lifecycle() },
    {
      plugins: [
        async (api) => {
          await api.register(swapRoutes, { swap: runtime.context, orderEvents: runtime.orderEvents });
          await api.register(ordersRoutes, { database, orderEvents: runtime.orderEvents });
          await api.register(liquidityRoutes, { swap: runtime.context });
          await api.register(discountRoutes, { service: runtime.discounts.service });
        },
        ...(options.plugins ?? []),
      ],
    },
  );
  await app.register(internalDiscountRoutes, {
    prefix: INTERNAL_API_PREFIX,
    discounts: runtime.discounts.solverDiscounts,
    solvers: runtime.context.solvers,
  });
  await app.ready();
  return {
    app,
    runtime,
    deployment,
    async syncHead() {
      const latest = await chain.publicClient.getBlock({ blockTag: "latest" });
      for (;;) {
        const head = await runtime.blocks.latest();
        if (head.hash === latest.hash) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      await runtime.stop();
      await app.close();
    },
  };
}

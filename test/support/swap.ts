// A swap-flow server around a test chain: a Deployment for the core contracts, scripted or real solvers, the swap
// runtime and the HTTP routes, on a given test database.
import type { Address } from "viem";
import type { Clock } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import type { Deployment, SolverConfig } from "../../src/deployment/schema.ts";
import type { App } from "../../src/http/server.ts";
import { ordersRoutes } from "../../src/orders/routes.ts";
import { swapRoutes } from "../../src/swap/routes.ts";
import { createSwapRuntime, type SwapRuntime } from "../../src/swap/runtime.ts";
import type { TestChain } from "./anvil.ts";
import { createTestServer } from "./server.ts";

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

export async function createSwapTestApp(
  chain: TestChain,
  database: Database,
  options: { solvers: readonly TestSolver[]; clock: Clock; deployment?: Partial<Deployment> },
): Promise<{ app: App; runtime: SwapRuntime; deployment: Deployment }> {
  const deployment = testDeployment(chain, options.solvers, options.deployment);
  const runtime = createSwapRuntime({
    deployment,
    rpcUrls: [chain.rpcUrl],
    protocolSigner: chain.accounts.protocol,
    solverSecrets: new Map(
      options.solvers.map((solver) => [solver.id, solver.secret ?? `secret-${solver.id}`]),
    ),
    database,
    clock: options.clock,
    logger: (await import("../../src/logger.ts")).silentLogger(),
    // Tests mine blocks by hand; poll fast so a new block is seen at once.
    blockPollIntervalMs: 20,
  });
  const { app } = await createTestServer(
    database,
    { clock: options.clock },
    {
      plugins: [
        async (api) => {
          await api.register(swapRoutes, { swap: runtime.context });
          await api.register(ordersRoutes, { database });
        },
      ],
    },
  );
  return { app, runtime, deployment };
}

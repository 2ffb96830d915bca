// A Sluice around a test database, built by the composition root as `sluice serve` builds it — partner-only unless
// given a deployment — and not listening: tests answer through fastify.inject, or listen on port 0 themselves.

import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { DeploymentOptions } from "../../src/app/deployment.ts";
import { buildSluice, type Sluice } from "../../src/app/sluice.ts";
import { type Clock, systemClock } from "../../src/clock.ts";
import { readEnv } from "../../src/config/env.ts";
import type { Database } from "../../src/db/client.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import type { Deployment } from "../../src/deployment/schema.ts";
import { API_PREFIX, type App } from "../../src/http/server.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import { TEST_LIMITS_ENV } from "./limits.ts";

export interface TestServerOptions {
  clock?: Clock;
  logger?: Logger;
  /**
   * Environment variables on top of a quiet test environment (e.g. the HTTP timeouts), whose request limits are
   * TEST_LIMITS_ENV's (limits.ts) unless given here.
   */
  env?: Record<string, string>;
  /**
   * A deployment to serve (its routes: swap, orders, liquidity, discounts, dev helpers). Nothing reads the chain
   * until the Sluice starts, so a test of routes that only use the database needs no chain behind `rpcUrls`.
   */
  deployment?: DeploymentOptions;
  /** Routes that only a test has (probes of the error envelopes), registered under /api/v1 next to Sluice's. */
  testRoutes?: (api: App) => Promise<void>;
}

export async function createTestServer(
  database: Database,
  options: TestServerOptions = {},
): Promise<{ app: App; internal: App; sluice: Sluice }> {
  const sluice = await buildSluice({
    env: readEnv({ SLUICE_DEMO_DATA: "0", ...TEST_LIMITS_ENV, ...options.env }),
    logger: options.logger ?? silentLogger(),
    clock: options.clock ?? systemClock,
    database,
    databasePrepared: true,
    listen: false,
    collectProcessMetrics: false,
    ...(options.deployment ? { deployment: options.deployment } : {}),
  });
  if (options.testRoutes) await sluice.http.register(options.testRoutes, { prefix: API_PREFIX });
  await sluice.http.ready();
  await sluice.internalHttp.ready();
  return { app: sluice.http, internal: sluice.internalHttp, sluice };
}

/**
 * The deployment parts of `deployment` (by default a placeholder one) for a Sluice that never starts: an RPC URL
 * nothing listens on, a fresh key. Its routes that only use the database (GET /orders) answer as on any deployment.
 */
export function unstartedDeployment(deployment: Deployment = placeholderDeployment()): DeploymentOptions {
  return {
    deployment,
    rpcUrls: ["http://127.0.0.1:9"],
    protocolSigner: privateKeyToAccount(generatePrivateKey()),
    solverSecrets: new Map(deployment.solvers.map((solver) => [solver.id, `secret-${solver.id}`])),
  };
}

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** A valid deployment whose contracts exist nowhere; `overrides` change its fields before it is parsed. */
export function placeholderDeployment(overrides: Record<string, unknown> = {}): Deployment {
  return parseDeployment(
    {
      name: "placeholder",
      chainId: 31337,
      chainName: "nowhere",
      local: true,
      reactor: address(1),
      executors: [address(2)],
      adapterFactory: address(3),
      protocolSigner: address(4),
      inputTokens: [{ address: address(5), symbol: "RWA", name: "RWA", decimals: 18, minQuoteAmount: "1" }],
      outputTokens: [{ address: address(6), symbol: "USD", name: "USD", decimals: 6 }],
      adapters: [],
      solvers: [],
      confirmationDepth: 0,
      ...overrides,
    },
    "placeholder deployment",
  );
}

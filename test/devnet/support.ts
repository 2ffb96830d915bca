// Devnets for tests: each on its own temporary data directory (its anvil state, devnet files and PGlite database),
// with the API on an ephemeral port, so any number run side by side.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type Address, erc20Abi } from "viem";
import { createChainPublicClient } from "../../src/chain/client.ts";
import { readEnv } from "../../src/config/env.ts";
import { type DevnetService, startDevnetService } from "../../src/devnet/service.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";

export function temporaryDataDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "sluice-devnet-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The devnet service as `npm start` runs it, minus the demo partner dataset (not what these tests are about); silent
 * unless given a logger.
 */
export async function startTestDevnet(
  dataDir: string,
  options: { logger?: Logger } = {},
): Promise<DevnetService & { readyMs: number }> {
  const started = performance.now();
  const env = readEnv({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SLUICE_DEMO_DATA: "0" });
  const devnet = await startDevnetService({ env, logger: options.logger ?? silentLogger() });
  return { ...devnet, readyMs: Math.round(performance.now() - started) };
}

export function devnetClient(devnet: DevnetService) {
  return createChainPublicClient({
    chainId: devnet.chain.chainId,
    rpcUrls: devnet.chain.rpcUrl,
    cacheTimeMs: 0,
  });
}

/** The wallet's balance of each asset: ETH for the zero address, `balanceOf` otherwise. */
export async function balancesOf(
  devnet: DevnetService,
  wallet: Address,
  tokens: readonly Address[],
): Promise<bigint[]> {
  const client = devnetClient(devnet);
  return Promise.all(
    tokens.map((token) =>
      /^0x0{40}$/.test(token)
        ? client.getBalance({ address: wallet })
        : client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [wallet] }),
    ),
  );
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

export async function postJson(url: string, body: unknown): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

export async function getJson(url: string): Promise<JsonResponse> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, json: await response.json() };
}

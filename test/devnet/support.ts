// Devnets for tests: each on its own temporary data directory (its anvil state, devnet files and PGlite database),
// with the API on an ephemeral port, so any number run side by side.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { type Address, erc20Abi, type Hex, type LocalAccount } from "viem";
import { type DevnetSluice, startDevnetSluice } from "../../src/app/devnet.ts";
import { createChainPublicClient, createChainWalletClient } from "../../src/chain/client.ts";
import { readEnv } from "../../src/config/env.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import { OrdersResponseSchema } from "../../src/orders/schemas.ts";
import {
  CheckApprovalResponseSchema,
  OrderResponseSchema,
  QuoteResponseSchema,
} from "../../src/swap/schemas.ts";
import { TEST_LIMITS_ENV } from "../support/limits.ts";
import { requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";

export function temporaryDataDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "sluice-devnet-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The devnet Sluice as `npm start` runs it, minus the demo partner dataset (not what these tests are about); silent
 * unless given a logger. `env` adds variables (e.g. `INTERNAL_API_AUTH`).
 */
export async function startTestDevnet(
  dataDir: string,
  options: { logger?: Logger; env?: Record<string, string>; pointsActivityStepMs?: number } = {},
): Promise<DevnetSluice & { readyMs: number }> {
  const started = performance.now();
  const env = readEnv({
    // The tests drive the devnet from one address and share the machine: not the production limits and shedding.
    ...TEST_LIMITS_ENV,
    ...options.env,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SLUICE_DEMO_DATA: "0",
  });
  const devnet = await startDevnetSluice({
    env,
    logger: options.logger ?? silentLogger(),
    ...(options.pointsActivityStepMs !== undefined
      ? { pointsActivityStepMs: options.pointsActivityStepMs }
      : {}),
  });
  return { ...devnet, readyMs: Math.round(performance.now() - started) };
}

export function devnetClient(devnet: DevnetSluice) {
  return createChainPublicClient({
    chainId: devnet.chain.chainId,
    rpcUrls: devnet.chain.rpcUrl,
    cacheTimeMs: 0,
  });
}

/** The wallet's balance of each asset: ETH for the zero address, `balanceOf` otherwise. */
export async function balancesOf(
  devnet: DevnetSluice,
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

/**
 * A wallet's swap through the API, as examples/swap.ts does it: quote, approve the Reactor when needed, sign the best
 * entry, order; resolves once the order is filled (by a bundled solver) with its id and fill transaction.
 */
export async function swapUntilFilled(options: {
  apiUrl: string;
  rpcUrl: string;
  chainId: number;
  reactor: Address;
  swapper: LocalAccount;
  tokenIn: Address;
  tokenOut: Address;
  amount: bigint;
}): Promise<{ orderId: string; txHash: Hex }> {
  const { apiUrl, swapper, chainId } = options;
  const quote = await postJson(`${apiUrl}/quote`, {
    tokenInChainId: chainId,
    tokenOutChainId: chainId,
    tokenIn: options.tokenIn,
    tokenOut: options.tokenOut,
    type: "EXACT_INPUT",
    amount: options.amount.toString(),
    swapper: swapper.address,
    outputs: [{ token: options.tokenOut }],
  });
  if (quote.status !== 200) throw new Error(`POST /quote: ${quote.status} ${JSON.stringify(quote.json)}`);
  const best = QuoteResponseSchema.parse(quote.json).quotes[0]!;

  const approval = await postJson(`${apiUrl}/check_approval`, {
    walletAddress: swapper.address,
    chainId,
    token: options.tokenIn,
    amount: options.amount.toString(),
  });
  const { approval: approveTx } = CheckApprovalResponseSchema.parse(approval.json);
  if (approveTx) {
    const client = createChainPublicClient({ chainId, rpcUrls: options.rpcUrl, cacheTimeMs: 0 });
    const wallet = createChainWalletClient({ chainId, rpcUrls: options.rpcUrl, account: swapper });
    const hash = await wallet.sendTransaction({ to: approveTx.to, data: approveTx.data as Hex });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  }

  const request = requestFromSignatureData(best.signatureData.value);
  const signature = await signRequest(swapper, { chainId, reactor: options.reactor }, request);
  const order = await postJson(`${apiUrl}/order`, { quote: best.quote, signature });
  if (order.status !== 200) throw new Error(`POST /order: ${order.status} ${JSON.stringify(order.json)}`);
  const { orderId } = OrderResponseSchema.parse(order.json);

  // Bounded by the test's own time limit: a block a second, the solvers poll twice a second.
  for (;;) {
    const [record] = OrdersResponseSchema.parse(
      (await getJson(`${apiUrl}/orders?orderId=${orderId}`)).json,
    ).orders;
    if (record?.orderStatus === "filled" && record.txHash) return { orderId, txHash: record.txHash as Hex };
    if (record?.orderStatus !== "open")
      throw new Error(`order ${orderId} is ${record?.orderStatus ?? "missing"}`);
    await sleep(250);
  }
}

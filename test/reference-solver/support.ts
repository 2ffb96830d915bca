// Helpers of the reference solver's tests: its config on a test chain, a quote request posted to it as Sluice does,
// its logs captured as JSON (the tests wait on what it reports instead of sleeping), per-test cleanups, a listener
// that lets Sluice and the solver learn each other's URL, a second tUSD adapter so a fill can split over two legs,
// and an order placed through Sluice as a wallet would (the server itself is createSwapTestApp).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import { type Address, encodeAbiParameters, type Hex, type LocalAccount, parseEventLogs } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterEach, expect } from "vitest";
import type { z } from "zod";
import {
  adapterFactoryAbi,
  liquidLaneAdapterAbi,
  testERC20Abi,
  testVaultAbi,
  testVaultBytecode,
} from "../../src/chain/abis.ts";
import type { Database } from "../../src/db/client.ts";
import { DEV_MNEMONIC } from "../../src/devnet/deploy.ts";
import { INTERNAL_API_PREFIX } from "../../src/http/route.ts";
import type { App } from "../../src/http/server.ts";
import type { OrderEvents } from "../../src/orders/order-events.ts";
import { OrdersResponseSchema, OwnOrdersResponseSchema } from "../../src/orders/schemas.ts";
import {
  parseSolverConfig,
  type ReferenceSolverConfig,
  type ReferenceSolverConfigInput,
} from "../../src/reference-solver/config.ts";
import { SHARED_SECRET_HEADER, type SolverLegSchema } from "../../src/solvers/protocol.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import type { TestChain } from "../support/anvil.ts";
import { changeOrderStatus, quoteRequestBody, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";

export const SOLVER_ID = "sluice_alpha";
export const SOLVER_SECRET = "alpha-secret";

export function solverConfig(
  chain: TestChain,
  overrides: Partial<ReferenceSolverConfigInput> = {},
): ReferenceSolverConfig {
  return parseSolverConfig(
    {
      solverId: SOLVER_ID,
      apiUrl: "http://127.0.0.1:9/api/v1",
      chainId: chain.chainId,
      rpcUrls: [chain.rpcUrl],
      executor: chain.core.executors[0]!,
      reactor: chain.core.reactor,
      adapters: [chain.core.adapters.usd, chain.core.adapters.usdt],
      marginBps: 10,
      sharedSecretEnv: "SLUICE_ALPHA_SECRET",
      privateKeyEnv: "SLUICE_ALPHA_KEY",
      pollIntervalMs: 50,
      ...overrides,
    },
    "test config",
  );
}

/** The private key of anvil's dev account 2 (`chain.accounts.solver`, the test Executor's caller). */
export function solverKey(): Hex {
  const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 2 }).getHdKey().privateKey;
  if (!key) throw new Error("no private key");
  return `0x${Buffer.from(key).toString("hex")}`;
}

/** One adapter leg of a solver quote request, as JSON. */
export type SolverQuoteLeg = z.input<typeof SolverLegSchema>;

/**
 * A solver-protocol quote request as Sluice posts it to `{endpoint}/quote`: `amount` tRWA → tUSD (exact input, one
 * output) for the test swapper over `adapters`, with fresh request and quote ids.
 */
export function solverQuoteRequest(chain: TestChain, amount: bigint, adapters: SolverQuoteLeg[]) {
  return {
    requestId: randomUUID(),
    quoteId: randomUUID(),
    tokenInChainId: chain.chainId,
    tokenOutChainId: chain.chainId,
    swapper: chain.accounts.swapper.address,
    tokenIn: chain.core.tokens.rwa,
    tokenOut: chain.core.tokens.usd,
    amount: amount.toString(),
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: 1,
    adapters,
  };
}

/** POSTs `body` to the solver's `{solverUrl}/quote` with the shared secret, as Sluice does. */
export function postSolverQuote(solverUrl: string, body: object, secret = SOLVER_SECRET): Promise<Response> {
  return fetch(`${solverUrl}/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", [SHARED_SECRET_HEADER]: secret },
    body: JSON.stringify(body),
  });
}

/**
 * What each test starts (listeners, solvers, servers), stopped after it, last first. Call it after useTestChain:
 * its afterEach then runs before the chain is reverted, so nothing still running sees the revert.
 */
export function useCleanups(): { add(cleanup: () => Promise<void>): void } {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    add(cleanup) {
      cleanups.push(cleanup);
    },
  };
}

export type LogEntry = Record<string, unknown> & { msg?: string; level: number };

export interface CapturedLogs {
  logger: Logger;
  entries: LogEntry[];
  /**
   * Resolves with the first matching entry, already written or still to come; with `after`, only entries written
   * after that one count.
   */
  waitFor(
    predicate: (entry: LogEntry) => boolean,
    options?: { what?: string; after?: LogEntry },
  ): Promise<LogEntry>;
}

/** A pino logger whose JSON lines are kept in memory. */
export function captureLogs(timeoutMs = 30_000): CapturedLogs {
  const entries: LogEntry[] = [];
  const waiters = new Set<{ predicate: (entry: LogEntry) => boolean; resolve: (entry: LogEntry) => void }>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as LogEntry;
        entries.push(entry);
        for (const waiter of waiters) {
          if (waiter.predicate(entry)) {
            waiters.delete(waiter);
            waiter.resolve(entry);
          }
        }
      }
      callback();
    },
  });
  return {
    logger: pino({ level: "debug" }, stream),
    entries,
    waitFor(predicate, options = {}) {
      const what = options.what ?? "a matching log entry";
      const from = options.after ? entries.indexOf(options.after) + 1 : 0;
      const seen = entries.slice(from).find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve };
        waiters.add(waiter);
        // A guard against hanging forever, not a timing assertion.
        setTimeout(() => {
          if (!waiters.delete(waiter)) return;
          const tail = entries.slice(-15).map((e) => JSON.stringify(e));
          reject(
            new Error(`no log entry for ${what} within ${timeoutMs} ms; last entries:\n${tail.join("\n")}`),
          );
        }, timeoutMs).unref();
      });
    },
  };
}

export interface LateListener {
  url: string;
  /** Method and path of every request received, in order. */
  requests: string[];
  /** Routes every request to `handler` from now on (until then: 503). */
  attach(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** While held, `GET …/orders` answers 503: Sluice is unreachable for the solver's poll. */
  holdOrders(held: boolean): void;
  /** While held, everything under `/api-internal/` answers 503: the internal discount API is unreachable. */
  holdInternal(held: boolean): void;
  close(): Promise<void>;
}

/**
 * A listener bound before the app it serves exists: Sluice's deployment needs the solver's URL and the solver's
 * config needs Sluice's, so one of them has to listen first.
 */
export async function startLateListener(): Promise<LateListener> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let ordersHeld = false;
  let internalHeld = false;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    requests.push(`${req.method} ${path}`);
    const isOrders = req.method === "GET" && path.endsWith("/orders");
    const isInternal = path.startsWith(`${INTERNAL_API_PREFIX}/`);
    if (!handler || (ordersHeld && isOrders) || (internalHeld && isInternal)) {
      return void res.writeHead(503).end();
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    attach(next) {
      handler = next;
    },
    holdOrders(held) {
      ordersHeld = held;
    },
    holdInternal(held) {
      internalHeld = held;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A second tUSD adapter on its own vault, created by the factory and configured like the core ones, but with a
 * better oracle price and a release limit, so it is the best leg until its capacity runs out. The core market maker
 * names `fillers` its fillers there (default: the test Executor, so the solver has a direct leg on it).
 */
export async function deploySecondUsdAdapter(
  chain: TestChain,
  options: { oraclePrice: bigint; limit: bigint; liquidity: bigint; fillers?: readonly Address[] },
): Promise<Address> {
  const { core, accounts, publicClient } = chain;
  const deployer = chain.wallet(accounts.deployer);
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const vaultReceipt = await mined(
    await deployer.deployContract({
      abi: testVaultAbi,
      bytecode: testVaultBytecode,
      args: [core.tokens.usd, "Sluice tUSD Vault 2", "svUSD2"],
    }),
  );
  const vault = vaultReceipt.contractAddress!;
  const createReceipt = await mined(
    await deployer.writeContract({
      address: core.adapterFactory,
      abi: adapterFactoryAbi,
      functionName: "create",
      args: [
        1n,
        accounts.deployer.address,
        encodeAbiParameters([{ type: "address" }, { type: "address" }], [vault, core.protocolSigner]),
      ],
    }),
  );
  const [added] = parseEventLogs({
    abi: adapterFactoryAbi,
    logs: createReceipt.logs,
    eventName: "AddEntity",
  });
  const adapter = added!.args.entity;
  const configure = async (functionName: string, args: readonly unknown[]) =>
    mined(
      await deployer.writeContract({
        address: adapter,
        abi: liquidLaneAdapterAbi,
        functionName,
        args,
      } as Parameters<typeof deployer.writeContract>[0]),
    );
  await configure("addTokenToRedeem", [core.tokens.rwa]);
  await configure("setOraclePrice", [core.tokens.rwa, options.oraclePrice]);
  await configure("setMinDiscount", [core.tokens.rwa, 500n]);
  await configure("setMarketMaker", [core.marketMaker, false]);
  await configure("setLimit", [core.tokens.rwa, options.limit]);
  await mined(
    await deployer.writeContract({
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "mint",
      args: [accounts.deployer.address, options.liquidity],
    }),
  );
  await mined(
    await deployer.writeContract({
      address: core.tokens.usd,
      abi: testERC20Abi,
      functionName: "approve",
      args: [vault, options.liquidity],
    }),
  );
  await mined(
    await deployer.writeContract({
      address: vault,
      abi: testVaultAbi,
      functionName: "deposit",
      args: [options.liquidity, adapter],
    }),
  );
  for (const filler of options.fillers ?? [core.executors[0]!]) {
    await mined(
      await chain.wallet(accounts.marketMaker).writeContract({
        address: adapter,
        abi: liquidLaneAdapterAbi,
        functionName: "setFiller",
        args: [filler, true],
      }),
    );
  }
  return adapter;
}

/**
 * The chain is reverted after each test, so the test's orders could be filled again by the next test's solver:
 * they leave the open list, as if the swapper had cancelled them.
 */
export async function retireOpenOrders(
  app: App,
  database: Database,
  orderEvents: OrderEvents,
): Promise<void> {
  const listed = OrdersResponseSchema.parse(
    (await app.inject({ url: "/api/v1/orders?orderStatus=open" })).json(),
  );
  for (const order of listed.orders) {
    await changeOrderStatus(database, orderEvents, {
      orderId: order.orderId,
      from: "open",
      to: "cancelled",
      reason: "test chain reverted",
      at: new Date(),
    });
  }
}

export interface PlacedOrder {
  orderId: string;
  orderHash: Hex;
  nonce: bigint;
  deadline: bigint;
  quotedAmount: bigint;
  committed: Array<{ token: string; recipient: string; amount: bigint }>;
}

/** Quote → sign → POST /order, as a wallet would (the reference solver must win); the order as GET /orders shows it. */
export async function placeOrder(
  chain: TestChain,
  app: App,
  amountIn: bigint,
  swapper: LocalAccount = chain.accounts.swapper,
): Promise<PlacedOrder> {
  const quote = await app.inject({
    method: "POST",
    url: "/api/v1/quote",
    payload: quoteRequestBody(chain, { amount: amountIn, swapper: swapper.address }),
  });
  expect(quote.statusCode, quote.body).toBe(200);
  const entry = QuoteResponseSchema.parse(quote.json()).quotes[0]!;
  expect(entry.solver.id).toBe(SOLVER_ID);
  const request = requestFromSignatureData(entry.signatureData.value);
  const signature = await signRequest(
    swapper,
    { chainId: chain.chainId, reactor: chain.core.reactor },
    request,
  );
  const order = await app.inject({
    method: "POST",
    url: "/api/v1/order",
    payload: { quote: entry.quote, signature },
  });
  expect(order.statusCode, order.body).toBe(200);
  const orderId = order.json().orderId as string;
  const listed = await app.inject({ url: `/api/v1/orders?orderId=${orderId}` });
  const record = OwnOrdersResponseSchema.parse(listed.json()).orders[0]!;
  return {
    orderId,
    orderHash: record.orderHash as Hex,
    nonce: request.nonce,
    deadline: request.deadline,
    quotedAmount: BigInt(entry.quote.aggregatedOutputs[0]!.amount),
    committed: record.outputs.map((o) => ({ ...o, amount: BigInt(o.amount) })),
  };
}

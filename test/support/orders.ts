// Creates real orders through the swap API (scripted solver, swapper signature) and fills them on-chain the way a
// solver does, for the indexer and lifecycle tests; the swapper's tRWA approval and token balances on the way, the
// swap server those suites share, and an indexer stepped until it has seen the chain's head.
import type { Address, Hex, LocalAccount } from "viem";
import { maxUint256 } from "viem";
import { afterAll, beforeAll } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import { executorAbi, testERC20Abi } from "../../src/chain/abis.ts";
import { decodeOrder, type Request } from "../../src/chain/order.ts";
import type { Clock } from "../../src/clock.ts";
import type { Database, DatabaseKind } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import type { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository, type OrderRow } from "../../src/orders/repository.ts";
import { OrderSettlement, type StatusChange } from "../../src/orders/settlement.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import type { QuoteResponse } from "../../src/swap/schemas.ts";
import type { TestChain } from "./anvil.ts";
import { createTestDatabase } from "./db.ts";
import { lateProxy } from "./late.ts";
import { signRequest } from "./requests.ts";
import { type ScriptedSolver, type SolverBehaviour, startScriptedSolver } from "./solver-server.ts";
import { listenForOrderStreams } from "./sse.ts";
import { createSwapTestApp } from "./swap.ts";

export interface QuotingSwapApp {
  readonly database: Database;
  readonly app: App;
  /** The whole Sluice the server runs in (its parts: the order feed, the order events…). */
  readonly sluice: Sluice;
  /** The server's order events: an indexer built by a test publishes here, as the server's own would. */
  readonly orderEvents: OrderEvents;
  readonly solver: ScriptedSolver;
  /** With `streams: true`: the order stream's URL on a free loopback port (the server listening, its feed started). */
  readonly streamUrl: string;
}

/** The quoting solver's behaviour: 98% of the input at the tUSD adapter's rate (1 tRWA = 1 tUSD), for `filler`. */
export function quotingBehaviour(filler: Address): SolverBehaviour {
  return {
    kind: "quote",
    filler,
    amountOut: (request) => (BigInt(request.amount) * 98n) / 100n / 10n ** 12n,
  };
}

/**
 * The order-lifecycle suites' server, registered in the calling describe (opened in beforeAll, closed in afterAll):
 * a `kind` database and a swap server on it whose one solver (`solver`), an external scripted one, quotes 98% of the input at
 * the tUSD adapter's rate (1 tRWA = 1 tUSD) for the test Executor. Read the fields inside tests and hooks.
 */
export function useQuotingSwapApp(
  kind: DatabaseKind,
  chain: TestChain,
  clock: Clock,
  options: { streams?: boolean } = {},
): QuotingSwapApp {
  let opened: QuotingSwapApp | undefined;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    const solver = await startScriptedSolver(quotingBehaviour(chain.core.executors[0]!));
    const swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: [{ id: "ext_scripted", endpoint: solver.url }],
    });
    close = () => swap.close();
    const streamUrl = options.streams
      ? await listenForOrderStreams(swap.sluice.parts.orderFeed, swap.app)
      : "";
    opened = {
      database,
      app: swap.app,
      sluice: swap.sluice,
      orderEvents: swap.runtime.orderEvents,
      solver,
      get streamUrl() {
        if (!streamUrl) throw new Error("useQuotingSwapApp: pass { streams: true } for the order stream");
        return streamUrl;
      },
    };
  });
  afterAll(async () => {
    await close?.();
    await opened?.solver.close();
    await opened?.database.close();
  });
  return lateProxy(() => opened, "useQuotingSwapApp: read the server inside tests and hooks");
}

/** Steps `indexer` until a step neither indexes a block nor rewinds: it has seen the chain's head. */
export async function indexUntilCaughtUp(indexer: ReactorIndexer): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const result = await indexer.step();
    if (result.blocks === 0 && result.rewoundTo === undefined) return;
  }
  throw new Error("indexer did not catch up");
}

/**
 * Changes an order's status as the indexer does (compare-and-set with its history row, in one transaction), then
 * publishes the change to `orderEvents`; returns whether it applied.
 */
export async function changeOrderStatus(
  database: Database,
  orderEvents: OrderEvents,
  change: StatusChange,
): Promise<boolean> {
  const settlement = new OrderSettlement(database, new OrderStats());
  const applied = await database.db.transaction((tx) => settlement.change(tx, change));
  if (applied) orderEvents.publish([applied.event]);
  return applied !== undefined;
}

export function requestFromSignatureData(value: {
  tokenIn: string;
  amountIn: string;
  outputs: Array<{ token: string; amount: string; recipient: string }>;
  deadline: string;
  nonce: string;
  protocol: string;
}): Request {
  return {
    tokenIn: value.tokenIn as Address,
    amountIn: BigInt(value.amountIn),
    outputs: value.outputs.map((o) => ({
      token: o.token as Address,
      amount: BigInt(o.amount),
      recipient: o.recipient as Address,
    })),
    deadline: BigInt(value.deadline),
    nonce: BigInt(value.nonce),
    protocol: value.protocol as Address,
  };
}

export async function approveReactor(
  chain: TestChain,
  swapper: LocalAccount,
  amount: bigint = maxUint256,
): Promise<void> {
  const hash = await chain.wallet(swapper).writeContract({
    address: chain.core.tokens.rwa,
    abi: testERC20Abi,
    functionName: "approve",
    args: [chain.core.reactor, amount],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

/** `owner`'s balance of the ERC-20 `token` on the test chain. */
export function tokenBalance(chain: TestChain, token: Address, owner: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: testERC20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/** A POST /quote body: tRWA → tUSD on the test chain, exact input, one output to the swapper. */
export function quoteRequestBody(chain: TestChain, options: { amount: bigint; swapper: Address }) {
  return {
    tokenInChainId: chain.chainId,
    tokenOutChainId: chain.chainId,
    tokenIn: chain.core.tokens.rwa,
    tokenOut: chain.core.tokens.usd,
    type: "EXACT_INPUT",
    amount: options.amount.toString(),
    swapper: options.swapper,
    outputs: [{ token: chain.core.tokens.usd }],
  };
}

export interface SignedQuote {
  /** The `/quote` entry's `quote`, as a client posts it back to /order. */
  quote: QuoteResponse["quotes"][number]["quote"];
  request: Request;
  /** The signer's EIP-712 signature of `request`, as viem makes it (65 bytes, v 27/28, low s). */
  signature: Hex;
}

/**
 * POST /quote for `swapper` (an account, or `swapperAddress` when the swapper is a contract wallet whose owner
 * `swapper` signs), and the swapper's signature of the best quote's Request.
 */
export async function signedQuote(
  chain: TestChain,
  app: App,
  options: { swapper?: LocalAccount; swapperAddress?: Address; amount?: bigint } = {},
): Promise<SignedQuote> {
  const swapper = options.swapper ?? chain.accounts.swapper;
  const response = await app.inject({
    method: "POST",
    url: "/api/v1/quote",
    payload: quoteRequestBody(chain, {
      amount: options.amount ?? 100n * 10n ** 18n,
      swapper: options.swapperAddress ?? swapper.address,
    }),
  });
  if (response.statusCode !== 200) throw new Error(`quote failed: ${response.body}`);
  const entry = response.json().quotes[0];
  const request = requestFromSignatureData(entry.signatureData.value);
  const signature = await signRequest(
    swapper,
    { chainId: chain.chainId, reactor: chain.core.reactor },
    request,
  );
  return { quote: entry.quote, request, signature };
}

/** Quote → sign → POST /order through the API; returns the stored order. */
export async function placeOrder(
  chain: TestChain,
  app: App,
  database: Database,
  options: { swapper?: LocalAccount; amount?: bigint } = {},
): Promise<OrderRow> {
  const { quote, signature } = await signedQuote(chain, app, options);
  const order = await app.inject({
    method: "POST",
    url: "/api/v1/order",
    payload: { quote, signature },
  });
  if (order.statusCode !== 200) throw new Error(`order failed: ${order.body}`);
  const row = await new OrderRepository(database, new OrderEvents(), new OrderStats()).findById(
    order.json().orderId,
  );
  if (!row) throw new Error("order not stored");
  return row;
}

/**
 * Sends the test solver's fill of a stored order through the test Executor (one leg on the tUSD adapter) and answers
 * its hash without waiting; `gas` skips the estimate, so a fill that will revert is still sent.
 */
export function sendFill(chain: TestChain, row: OrderRow, options: { gas?: bigint } = {}): Promise<Hex> {
  const order = decodeOrder(row.encodedOrder as Hex);
  const total = order.outputs.reduce((sum, output) => sum + output.amount, 0n);
  const executor = chain.core.executors[0]!;
  return chain.wallet(chain.accounts.solver).writeContract({
    address: executor,
    abi: executorAbi,
    functionName: "fill",
    args: [
      order,
      row.protocolSignature as Hex,
      [
        {
          adapter: chain.core.adapters.usd,
          swap: {
            recipient: executor,
            tokenIn: order.request.tokenIn,
            amountIn: order.request.amountIn,
            amountOut: total,
          },
        },
      ],
      "0x",
    ],
    ...(options.gas === undefined ? {} : { gas: options.gas }),
  });
}

/** Fills a stored order through the test Executor with one leg on the tUSD adapter; returns the transaction hash. */
export async function fillOrder(chain: TestChain, row: OrderRow): Promise<Hex> {
  const hash = await sendFill(chain, row);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("fill reverted");
  return hash;
}

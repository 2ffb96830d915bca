// A solver that polls like vault-solver (vault-solver-poller.ts, written from the real documents only) as the one
// configured solver of a Sluice on anvil with the devnet's contracts: it quotes through the solver protocol, learns
// it won from `GET /orders?filler=<its Executor>&orderStatus=open`, and fills through its Executor — a plain order on
// its direct leg, and a discount order whose discount it resolves at the internal API in `network` mode (no
// credentials, the batch shape with one entry). The second tUSD adapter, on which only the curator is authorized,
// carries the discount, so the discount leg is the best one for tUSD. Sluice is built by the composition root
// (createSwapTestApp) on PGlite and on PostgreSQL, and reached over HTTP, the internal API on a listener of its own.
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Address, decodeFunctionData, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executorAbi, liquidLaneAdapterAbi, reactorAbi } from "../../src/chain/abis.ts";
import { systemClock } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import { OrdersResponseSchema } from "../../src/orders/schemas.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { discountBody } from "../liquidity/worked-example.ts";
import {
  deploySecondUsdAdapter,
  type LateListener,
  solverKey,
  startLateListener,
} from "../reference-solver/support.ts";
import { devAccount, startTestChain, type TestChain } from "../support/anvil.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { approveReactor, requestFromSignatureData, tokenBalance } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";
import { INCOMPLETE_PAYLOAD, UNKNOWN_ORDER_FIELDS, VaultSolverPoller } from "./vault-solver-poller.ts";

const RWA = 10n ** 18n;
const USD = 10n ** 6n;
const SOLVER_ID = "vault_solver";
const SECRET = "vault-solver-secret";
const DISCOUNT_PPM = 600n;

let chain: TestChain;
let discountAdapter: Address;
/** Authorized on the discount adapter only (a filler of its market maker): signs the discount. */
const curator = devAccount(9);

it("the poller is written from the reference documents only: nothing it imports, directly or not, is Sluice's", () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/^import[^;]*? from "([^"]+)";/gm)) {
      expect(specifier, `${file} imports ${specifier}`).not.toMatch(/\/src\//);
      if (specifier!.startsWith(".")) visit(fileURLToPath(new URL(specifier!, pathToFileURL(file))));
    }
  };
  visit(fileURLToPath(new URL("./vault-solver-poller.ts", import.meta.url)));
  expect([...seen].map((file) => file.split("/").at(-1)).sort()).toEqual([
    "reference-documents.ts",
    "rfq-backend.generated.ts",
    "vault-solver-poller.ts",
  ]);
});

// One chain for the file: each database kind's Sluice and poller place their own orders on it.
beforeAll(async () => {
  chain = await startTestChain();
  await approveReactor(chain, chain.accounts.swapper);
  discountAdapter = await deploySecondUsdAdapter(chain, {
    oraclePrice: 1_002n * 10n ** 15n,
    limit: 300n * USD,
    liquidity: 1_000n * USD,
    fillers: [curator.address],
  });
});
afterAll(async () => {
  await chain?.stop();
});

describe.each(databaseKinds)("a vault-solver-like poller fills through Sluice (%s)", (kind) => {
  let database: Database;
  let subject: SwapTestApp;
  let poller: VaultSolverPoller;
  let listener: LateListener;
  let internalListener: LateListener;
  let discountId: Hex;
  let discountNonce: bigint;
  /** Headers of every request the internal listener received. */
  const internalHeaders: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    listener = await startLateListener();
    internalListener = await startLateListener();
    poller = await VaultSolverPoller.start({
      apiOrigin: listener.url,
      internalApiUrl: `${internalListener.url}/api-internal/v1`,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      executor: chain.core.executors[0]!,
      privateKey: solverKey(),
      sharedSecret: SECRET,
      marginBps: 5n,
      pollIntervalMs: 300,
    });
    subject = await createSwapTestApp(chain, database, {
      clock: systemClock,
      solvers: [
        {
          id: SOLVER_ID,
          endpoint: poller.url,
          secret: SECRET,
          filler: chain.core.executors[0]!,
          internal: true,
          // vault-solver decodes strictly and cannot add a parameter to its poll: its entry picks the records.
          ordersView: "rfq-backend",
        },
      ],
      internalAuth: "network",
      deployment: {
        adapters: [chain.core.adapters.usd, chain.core.adapters.usdt, discountAdapter].map((address) => ({
          address,
        })),
      },
    });
    listener.attach((req, res) => subject.app.routing(req, res));
    internalListener.attach((req, res) => {
      internalHeaders.push(req.headers);
      subject.internal.routing(req, res);
    });
    await subject.runtime.start();

    const { discount, body } = await discountBody(chain, discountAdapter, curator, {
      deadline: Number(await chain.now()) + 3600,
      discount: DISCOUNT_PPM,
    });
    const published = await subject.app.inject({ method: "POST", url: "/api/v1/discount", payload: body });
    expect(published.statusCode, published.body).toBe(200);
    discountId = published.json().discountId as Hex;
    discountNonce = discount.nonce;
    poller.startPolling();
  });

  afterAll(async () => {
    await poller?.stop();
    await subject?.close();
    await listener?.close();
    await internalListener?.close();
    await database?.close();
  });

  /** A wallet's swap through the HTTP API: quote, sign the best entry (the poller's), order; the order id. */
  async function order(tokenOut: Address, amount: bigint) {
    const swapper = chain.accounts.swapper;
    const quoted = await fetch(`${listener.url}/api/v1/quote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        tokenInChainId: chain.chainId,
        tokenOutChainId: chain.chainId,
        tokenIn: chain.core.tokens.rwa,
        tokenOut,
        type: "EXACT_INPUT",
        amount: amount.toString(),
        swapper: swapper.address,
        outputs: [{ token: tokenOut }],
      }),
    });
    expect(quoted.status).toBe(200);
    const entry = QuoteResponseSchema.parse(await quoted.json()).quotes[0]!;
    expect(entry.solver.id).toBe(SOLVER_ID);
    const request = requestFromSignatureData(entry.signatureData.value);
    const signature = await signRequest(
      swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      request,
    );
    const ordered = await fetch(`${listener.url}/api/v1/order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quote: entry.quote, signature }),
    });
    expect(ordered.status).toBe(200);
    return { orderId: ((await ordered.json()) as { orderId: string }).orderId, quoted: entry };
  }

  /** Waits until Sluice shows the order filled; fails at once when the poller found the payload incomplete. */
  async function filled(orderId: string) {
    for (;;) {
      const incomplete = poller.logs.filter((line) => line.msg === INCOMPLETE_PAYLOAD);
      expect(incomplete, "the poller could not fill: execution fields missing").toEqual([]);
      const refused = poller.logs.filter((line) => line.msg === UNKNOWN_ORDER_FIELDS);
      expect(refused, "the poller's strict decoder refused the records").toEqual([]);
      const reverted = poller.fills.filter((fill) => fill.status !== "success");
      expect(reverted, JSON.stringify(poller.logs.slice(-5))).toEqual([]);
      const listed = await fetch(`${listener.url}/api/v1/orders?orderId=${orderId}`);
      const [record] = OrdersResponseSchema.parse(await listed.json()).orders;
      if (record?.orderStatus === "filled") return record;
      expect(record?.orderStatus).toBe("open");
      await sleep(250);
    }
  }

  async function expectSettled(orderId: string, tokenOut: Address, before: bigint) {
    const record = await filled(orderId);
    const fill = poller.fills.find((candidate) => candidate.orderId === orderId)!;
    expect(fill.txHash).toBe(record.txHash);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: fill.txHash });
    expect(receipt.status).toBe("success");
    const [event] = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" });
    expect(event).toBeDefined();
    // Settled exactly as committed: the order's outputs, paid to the swapper in the fill transaction.
    expect(record.settledAmounts).toEqual(
      record.outputs.map((output) => ({ ...output, txHash: fill.txHash })),
    );
    const paid = BigInt(record.settledAmounts[0]!.amount);
    expect(await tokenBalance(chain, tokenOut, chain.accounts.swapper.address)).toBe(before + paid);
    return { record, fill, paid };
  }

  it("fills a plain order (tRWA → tUSDT, its direct leg) found by filler", async () => {
    const tokenOut = chain.core.tokens.usdt;
    const before = await tokenBalance(chain, tokenOut, chain.accounts.swapper.address);
    const { orderId, quoted } = await order(tokenOut, 10n * RWA);
    const { fill, paid } = await expectSettled(orderId, tokenOut, before);
    expect(fill.leg).toBe("direct");
    expect(paid).toBeGreaterThanOrEqual(BigInt(quoted.quote.aggregatedOutputs[0]!.amount));
    const tx = await chain.publicClient.getTransaction({ hash: fill.txHash });
    const call = decodeFunctionData({ abi: executorAbi, data: tx.input });
    expect(call.functionName).toBe("fill");
    expect(call.args).toHaveLength(4);
  });

  it("fills a discount order, resolving the discount in network mode with the one-entry batch shape", async () => {
    const tokenOut = chain.core.tokens.usd;
    const before = await tokenBalance(chain, tokenOut, chain.accounts.swapper.address);
    const { orderId, quoted } = await order(tokenOut, 100n * RWA);
    const { fill, paid } = await expectSettled(orderId, tokenOut, before);
    expect(fill.leg).toBe("discount");
    expect(paid).toBeGreaterThanOrEqual(BigInt(quoted.quote.aggregatedOutputs[0]!.amount));
    expect(poller.resolveBodies).toEqual([{ discountIds: [discountId] }]);
    // No credentials on any internal call: the listener's network is the guard.
    expect(internalHeaders.length).toBeGreaterThan(0);
    for (const headers of internalHeaders) {
      expect(headers["x-solver-id"]).toBeUndefined();
      expect(headers["x-rfq-shared-secret"]).toBeUndefined();
    }
    const tx = await chain.publicClient.getTransaction({ hash: fill.txHash });
    const call = decodeFunctionData({ abi: executorAbi, data: tx.input });
    expect(call.args).toHaveLength(5);
    expect(
      await chain.publicClient.readContract({
        address: discountAdapter,
        abi: liquidLaneAdapterAbi,
        functionName: "isUsedNonce",
        args: [chain.core.tokens.rwa, discountNonce],
      }),
    ).toBe(true);
  });

  it("gets the real document's keys only: its entry's ordersView, or view= on any poll; Sluice's records refused", async () => {
    const { orderId } = await order(chain.core.tokens.usdt, 10n * RWA);
    await filled(orderId);
    const keys = async (query: string) => {
      const response = await fetch(`${listener.url}/api/v1/orders?${query}`);
      expect(response.status).toBe(200);
      const [record] = ((await response.json()) as { orders: Array<Record<string, unknown>> }).orders;
      return Object.keys(record!).sort();
    };
    const reference = [
      "input",
      "nonce",
      "orderId",
      "orderStatus",
      "outputs",
      "quoteId",
      "settledAmounts",
      "swapper",
      "txHash",
      "type",
    ];
    // By its Executor (its entry's ordersView), or asked for by anyone.
    expect(await keys(`filler=${chain.core.executors[0]}&orderId=${orderId}`)).toEqual(reference);
    expect(await keys(`orderId=${orderId}&view=rfq-backend`)).toEqual(reference);
    // Sluice's own records otherwise, or when the poll asks: 11 keys more.
    const own = await keys(`orderId=${orderId}`);
    expect(own).toEqual(await keys(`filler=${chain.core.executors[0]}&orderId=${orderId}&view=sluice`));
    expect(own.filter((key) => !reference.includes(key))).toEqual([
      "committedAmountOut",
      "createdAt",
      "fillBlockNumber",
      "finalized",
      "orderHash",
      "orderRequestId",
      "priceImprovement",
      "quoteRequestId",
      "quotedAmountOut",
      "settledAmountOut",
      "updatedAt",
    ]);
    // Which the strict decoder refuses, as vault-solver builds that deny unknown fields do.
    const record = (await (await fetch(`${listener.url}/api/v1/orders?orderId=${orderId}`)).json()).orders[0];
    await poller.handle({ ...record, orderId: "00000000-0000-4000-8000-000000000003" });
    expect(poller.logs.at(-1)).toMatchObject({
      msg: UNKNOWN_ORDER_FIELDS,
      unknown: expect.arrayContaining(["orderHash"]),
    });
  });

  it("is strict about the execution fields: an open order without one is logged as vault-solver does, not filled", async () => {
    const fillsBefore = poller.fills.length;
    const order = {
      type: "Priority" as const,
      orderId: "00000000-0000-4000-8000-000000000001",
      orderStatus: "open" as const,
      quoteId: "00000000-0000-4000-8000-000000000002",
      swapper: chain.accounts.swapper.address,
      txHash: null,
      nonce: "1",
      input: { token: chain.core.tokens.rwa, amount: RWA.toString() },
      outputs: [],
      settledAmounts: [],
      encodedOrder: "0x00",
      deadline: 1,
      filler: chain.core.executors[0]!,
    };
    await poller.handle(order);
    expect(poller.logs.at(-1)).toEqual({
      msg: INCOMPLETE_PAYLOAD,
      orderId: order.orderId,
      missing: ["protocolSignature"],
    });
    expect(poller.fills).toHaveLength(fillsBefore);
  });
});

// The reference solver as an internal solver, end to end on anvil: a Sluice server (PGlite) with the public and the
// internal discount routes registers it as internal; a curator authorized on a second tUSD adapter — one the
// solver's Executor may not swap on directly — publishes a 600 ppm discount through POST /discount. The swapper
// quotes, signs and posts; the solver learns it won, resolves the discount and fills through the adapter's discount
// swap: alone, or split with a direct leg once the discount leg's capacity is used up. An external solver never
// calls the internal API, and an internal one that cannot reach it skips the discount leg instead of guessing.
import { type Address, decodeFunctionData, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  executorAbi,
  liquidLaneAdapterAbi,
  liquidLaneAdapterViewAbi,
  reactorAbi,
} from "../../src/chain/abis.ts";
import { hashOrder } from "../../src/chain/order.ts";
import type { Database } from "../../src/db/client.ts";
import { type ReferenceSolver, startReferenceSolver } from "../../src/reference-solver/main.ts";
import {
  amountOutAt,
  discountedRate,
  discountSwapOutput,
  withMargin,
} from "../../src/reference-solver/pricing.ts";
import { discountBody } from "../liquidity/worked-example.ts";
import { devAccount, useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { approveReactor, tokenBalance } from "../support/orders.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";
import {
  type CapturedLogs,
  captureLogs,
  deploySecondUsdAdapter,
  type LateListener,
  type LogEntry,
  placeOrder,
  postSolverQuote,
  retireOpenOrders,
  SOLVER_ID,
  SOLVER_SECRET,
  type SolverQuoteLeg,
  solverConfig,
  solverKey,
  solverQuoteRequest,
  startLateListener,
  useCleanups,
} from "./support.ts";

const RWA = 10n ** 18n;
const USD = 10n ** 6n;
const MARGIN_BPS = 10;
const DISCOUNT_PPM = 600n;
/** The discount adapter's oracle: 1.002 tUSD per tRWA. */
const ORACLE_PRICE = 1_002n * 10n ** 15n;
const DISCOUNT_LIMIT = 300n * USD;
/** The core tUSD adapter's direct rate: 1.0 less the 500 ppm min discount. */
const DIRECT_RATE = 9995n * 10n ** 14n;
const DECIMALS = { tokenIn: 18, tokenOut: 6 };
/** 1.002 less 600 ppm = 1.0013988, rounded per whole token as Sluice and the solver price it. */
const DISCOUNT_RATE = discountedRate(1_002_000n, DISCOUNT_PPM, 6);

const chain = useTestChain();
/** Authorized on the discount adapter only (a filler of its market maker): signs the discount. */
const curator = devAccount(9);
let discountAdapter: Address;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  await approveReactor(chain, chain.accounts.swapper);
  discountAdapter = await deploySecondUsdAdapter(chain, {
    oraclePrice: ORACLE_PRICE,
    limit: DISCOUNT_LIMIT,
    liquidity: 1_000n * USD,
    fillers: [curator.address],
  });
});
afterAll(async () => {
  await database?.close();
});

const cleanups = useCleanups();
beforeEach(async () => {
  await database.query("delete from discounts");
  await database.query("delete from discount_cancels");
});

interface Flow {
  subject: SwapTestApp;
  listener: LateListener;
  /** Sluice's internal listener (the internal discount API), a port of its own as Sluice serves it. */
  internalListener: LateListener;
  solver: ReferenceSolver;
  logs: CapturedLogs;
}

/** Sluice with the reference solver as its one solver, internal or external in both configs. */
async function startFlow(kind: "internal" | "external"): Promise<Flow> {
  const internal = kind === "internal";
  const listener = await startLateListener();
  cleanups.add(() => listener.close());
  const internalListener = await startLateListener();
  cleanups.add(() => internalListener.close());
  const logs = captureLogs();
  const solver = await startReferenceSolver(
    solverConfig(chain, {
      apiUrl: `${listener.url}/api/v1`,
      ...(internal ? { internalApiUrl: `${internalListener.url}/api-internal/v1` } : {}),
      adapters: [chain.core.adapters.usd, chain.core.adapters.usdt],
      marginBps: MARGIN_BPS,
      internal,
    }),
    { sharedSecret: SOLVER_SECRET, privateKey: solverKey(), logger: logs.logger },
  );
  cleanups.add(() => solver.stop());
  const subject = await createSwapTestApp(chain, database, {
    clock: new ManualClock(Number(await chain.now()) * 1000),
    solvers: [
      {
        id: SOLVER_ID,
        endpoint: solver.url,
        secret: SOLVER_SECRET,
        filler: chain.core.executors[0]!,
        internal,
      },
    ],
    deployment: {
      adapters: [chain.core.adapters.usd, chain.core.adapters.usdt, discountAdapter].map((address) => ({
        address,
      })),
    },
  });
  cleanups.add(async () => {
    await retireOpenOrders(subject.app, database, subject.runtime.orderEvents);
    await subject.close();
  });
  listener.attach((req, res) => subject.app.routing(req, res));
  internalListener.attach((req, res) => subject.internal.routing(req, res));
  return { subject, listener, internalListener, solver, logs };
}

/** The curator's discount, published through Sluice's own POST /discount. */
async function publishDiscount(flow: Flow): Promise<{ discountId: Hex; nonce: bigint }> {
  const { discount, body } = await discountBody(chain, discountAdapter, curator, {
    deadline: Number(await chain.now()) + 3600,
    discount: DISCOUNT_PPM,
  });
  const response = await flow.subject.app.inject({ method: "POST", url: "/api/v1/discount", payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return { discountId: response.json().discountId as Hex, nonce: discount.nonce };
}

const balanceOf = (token: Address, owner: Address) => tokenBalance(chain, token, owner);

function discountNonceUsed(nonce: bigint): Promise<boolean> {
  return chain.publicClient.readContract({
    address: discountAdapter,
    abi: liquidLaneAdapterAbi,
    functionName: "isUsedNonce",
    args: [chain.core.tokens.rwa, nonce],
  });
}

/** What the discount swap pays for `amountIn`: the adapter's gross oracle output less 600 ppm. */
function discountSwapPays(amountIn: bigint): bigint {
  return discountSwapOutput((amountIn * ORACLE_PRICE * USD) / (RWA * RWA), DISCOUNT_PPM);
}

interface LoggedLeg {
  adapter: string;
  discountId?: string;
  amountIn: string;
  amountOut: string;
}

/** The fill transaction's Executor call, decoded. */
async function decodedFill(txHash: Hex) {
  const tx = await chain.publicClient.getTransaction({ hash: txHash });
  return decodeFunctionData({ abi: executorAbi, data: tx.input });
}

/** The discount adapter's whole capacity as the leg Sluice sends for discount `discountId`. */
const discountLeg = (discountId: string): SolverQuoteLeg => ({
  adapter: discountAdapter,
  asset: chain.core.tokens.usd,
  assetDecimals: 6,
  maxAssets: DISCOUNT_LIMIT.toString(),
  maxRate: DISCOUNT_RATE.toString(),
  discountId,
});

const internalCalls = (listener: LateListener) =>
  listener.requests.filter((request) => request.includes("/api-internal/"));

const filled = (orderHash: Hex) => (entry: LogEntry) =>
  entry.msg === "order filled" && entry.orderHash === orderHash;

describe("reference solver as an internal solver: discount legs", () => {
  it("fills through the discount swap when the discount leg is the best and big enough, settling exactly", async () => {
    const flow = await startFlow("internal");
    const { core, accounts } = chain;
    const executor = core.executors[0]!;
    const { discountId, nonce } = await publishDiscount(flow);
    const before = {
      swapperUsd: await balanceOf(core.tokens.usd, accounts.swapper.address),
      executorUsd: await balanceOf(core.tokens.usd, executor),
      adapterRwa: await balanceOf(core.tokens.rwa, discountAdapter),
    };

    const amountIn = 100n * RWA;
    const placed = await placeOrder(chain, flow.subject.app, amountIn);
    // Priced on the discount leg alone (1.0014 beats the direct 0.9995): one unit less, less the margin.
    expect(placed.quotedAmount).toBe(
      withMargin(amountOutAt(amountIn, DISCOUNT_RATE, DECIMALS) - 1n, MARGIN_BPS),
    );
    const quoted = await flow.logs.waitFor((e) => e.msg === "quote request" && e.status === 200);
    expect(quoted.legs).toEqual([
      {
        adapter: discountAdapter,
        discountId,
        amountIn: amountIn.toString(),
        amountOut: (amountOutAt(amountIn, DISCOUNT_RATE, DECIMALS) - 1n).toString(),
      },
    ]);

    const fill = await flow.logs.waitFor(filled(placed.orderHash), { what: "the discount-leg fill" });
    // Planned with the discount swap's exact output: floor(floor(100 × 1.002 tUSD) × 0.9994).
    const legOut = discountSwapPays(amountIn);
    expect(legOut).toBe(100_139_880n);
    expect(fill.legs).toEqual([
      { adapter: discountAdapter, discountId, amountIn: amountIn.toString(), amountOut: legOut.toString() },
    ]);

    // The 5-argument fill: no direct swap, one discount swap paying the Executor.
    const call = await decodedFill(fill.txHash as Hex);
    expect(call.args).toHaveLength(5);
    const [, , swapInputs, discountSwapInputs] = call.args as unknown as [
      unknown,
      unknown,
      unknown[],
      Array<{
        adapter: Address;
        recipient: Address;
        amountIn: bigint;
        discountSwap: { discount: { nonce: bigint } };
      }>,
    ];
    expect(swapInputs).toEqual([]);
    expect(discountSwapInputs).toHaveLength(1);
    expect(discountSwapInputs[0]).toMatchObject({ adapter: discountAdapter, recipient: executor, amountIn });
    expect(discountSwapInputs[0]!.discountSwap.discount.nonce).toBe(nonce);

    // Fill on-chain; the committed outputs to the swapper, the rest of the leg's output stays with the Executor.
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: fill.txHash as Hex });
    expect(receipt.status).toBe("success");
    const events = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" });
    expect(events.map((event) => hashOrder(event.args.order))).toEqual([placed.orderHash]);
    const committed = placed.committed.reduce((sum, output) => sum + output.amount, 0n);
    expect(committed).toBe(placed.quotedAmount);
    expect(await balanceOf(core.tokens.usd, accounts.swapper.address)).toBe(before.swapperUsd + committed);
    expect(await balanceOf(core.tokens.usd, executor)).toBe(before.executorUsd + legOut - committed);
    expect(await balanceOf(core.tokens.rwa, discountAdapter)).toBe(before.adapterRwa + amountIn);

    // The discount is used up: its nonce is spent on the adapter and Sluice no longer lists it.
    expect(await discountNonceUsed(nonce)).toBe(true);
    const listed = await flow.subject.internal.inject({
      url: "/api-internal/v1/discounts",
      headers: { "x-solver-id": SOLVER_ID, "x-rfq-shared-secret": SOLVER_SECRET },
    });
    expect(listed.json()).toEqual({ protocol: accounts.protocol.address.toLowerCase(), discounts: [] });
    // Listed, then resolved in the real document's shapes: POST /discounts (the batch shape with one entry).
    // The public listener never saw an internal call.
    expect(internalCalls(flow.listener)).toEqual([]);
    expect(internalCalls(flow.internalListener)).toEqual(
      expect.arrayContaining(["GET /api-internal/v1/discounts", "POST /api-internal/v1/discounts"]),
    );
  });

  it("splits over the discount leg up to its capacity (exact output within it) and a direct leg", async () => {
    const flow = await startFlow("internal");
    const { core, accounts } = chain;
    const executor = core.executors[0]!;
    const { discountId, nonce } = await publishDiscount(flow);
    const swapperUsd = await balanceOf(core.tokens.usd, accounts.swapper.address);
    const executorUsd = await balanceOf(core.tokens.usd, executor);

    const amountIn = 1000n * RWA;
    const placed = await placeOrder(chain, flow.subject.app, amountIn);
    const fill = await flow.logs.waitFor(filled(placed.orderHash), { what: "the split fill" });
    // The log lists the direct swaps first, then the discount swaps.
    const [directLeg, discountLeg] = fill.legs as LoggedLeg[];
    expect(directLeg).toMatchObject({ adapter: core.adapters.usd });
    expect(discountLeg).toMatchObject({ adapter: discountAdapter, discountId });
    const discountIn = BigInt(discountLeg!.amountIn);
    const discountOut = BigInt(discountLeg!.amountOut);
    const directIn = BigInt(directLeg!.amountIn);
    const directOut = BigInt(directLeg!.amountOut);
    expect(discountIn + directIn).toBe(amountIn);
    // The discount leg pays exactly what the adapter computes, within its 300 tUSD (the rate's estimate alone
    // would have overshot it), and the direct leg one unit below its rate.
    expect(discountOut).toBe(discountSwapPays(discountIn));
    expect(discountOut).toBeLessThanOrEqual(DISCOUNT_LIMIT);
    expect(discountOut).toBeGreaterThan(DISCOUNT_LIMIT - USD / 1000n);
    expect(directOut).toBe(amountOutAt(directIn, DIRECT_RATE, DECIMALS) - 1n);

    const call = await decodedFill(fill.txHash as Hex);
    expect(call.args).toHaveLength(5);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: fill.txHash as Hex });
    expect(receipt.status).toBe("success");
    const committed = placed.committed.reduce((sum, output) => sum + output.amount, 0n);
    expect(await balanceOf(core.tokens.usd, accounts.swapper.address)).toBe(swapperUsd + committed);
    expect(await balanceOf(core.tokens.usd, executor)).toBe(
      executorUsd + discountOut + directOut - committed,
    );
    expect(
      await chain.publicClient.readContract({
        address: discountAdapter,
        abi: liquidLaneAdapterViewAbi,
        functionName: "getMaxAssets",
        args: [core.tokens.rwa],
      }),
    ).toBe(DISCOUNT_LIMIT - discountOut);
    expect(await discountNonceUsed(nonce)).toBe(true);
  });

  it("skips the discount leg when the internal API cannot be reached: quotes and fills on direct legs only", async () => {
    const flow = await startFlow("internal");
    const { nonce } = await publishDiscount(flow);
    flow.internalListener.holdInternal(true);

    const amountIn = 10n * RWA;
    const placed = await placeOrder(chain, flow.subject.app, amountIn);
    expect(placed.quotedAmount).toBe(
      withMargin(amountOutAt(amountIn, DIRECT_RATE, DECIMALS) - 1n, MARGIN_BPS),
    );
    await flow.logs.waitFor(
      (e) => e.msg === "discount legs skipped: the internal discount API cannot be read",
    );
    const fill = await flow.logs.waitFor(filled(placed.orderHash), { what: "the direct fill" });
    expect(fill.legs).toEqual([
      {
        adapter: chain.core.adapters.usd,
        amountIn: amountIn.toString(),
        amountOut: (amountOutAt(amountIn, DIRECT_RATE, DECIMALS) - 1n).toString(),
      },
    ]);
    expect(
      flow.logs.entries.some(
        (e) => e.msg === "planning without discount legs: the internal discount API cannot be read",
      ),
    ).toBe(true);
    expect((await decodedFill(fill.txHash as Hex)).args).toHaveLength(4);
    expect(await discountNonceUsed(nonce)).toBe(false);
  });

  it("skips a discount leg whose discount is not in the live list", async () => {
    const flow = await startFlow("internal");
    await publishDiscount(flow);
    const unknownId = `0x${"ab".repeat(32)}`;
    const body = solverQuoteRequest(chain, 10n * RWA, [discountLeg(unknownId)]);
    const response = await postSolverQuote(flow.solver.url, body);
    expect(response.status).toBe(204);
    const skipped = await flow.logs.waitFor(
      (e) => e.msg === "discount leg skipped: not a live discount" && e.quoteId === body.quoteId,
    );
    expect(skipped.discountId).toBe(unknownId);
    const line = await flow.logs.waitFor((e) => e.msg === "quote request" && e.quoteId === body.quoteId);
    expect(line.declined).toBe("no_legs");
  });
});

describe("reference solver as an external solver", () => {
  it("is offered no discount leg, fills on its direct legs and never calls the internal API", async () => {
    const flow = await startFlow("external");
    const { discountId, nonce } = await publishDiscount(flow);

    const amountIn = 10n * RWA;
    const placed = await placeOrder(chain, flow.subject.app, amountIn);
    expect(placed.quotedAmount).toBe(
      withMargin(amountOutAt(amountIn, DIRECT_RATE, DECIMALS) - 1n, MARGIN_BPS),
    );
    const fill = await flow.logs.waitFor(filled(placed.orderHash), { what: "the direct fill" });
    expect((fill.legs as LoggedLeg[]).map((leg) => leg.adapter)).toEqual([chain.core.adapters.usd]);
    expect((await decodedFill(fill.txHash as Hex)).args).toHaveLength(4);

    // Sent a discount leg anyway (the live one), it declines it without asking Sluice about it.
    const response = await postSolverQuote(
      flow.solver.url,
      solverQuoteRequest(chain, amountIn, [discountLeg(discountId)]),
    );
    expect(response.status).toBe(204);
    expect([...internalCalls(flow.listener), ...flow.internalListener.requests]).toEqual([]);
    expect(await discountNonceUsed(nonce)).toBe(false);
  });
});

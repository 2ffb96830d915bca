// The reference solver end to end on anvil: a Sluice swap server on PGlite registers it as a solver; a swapper
// quotes, signs and posts an order; the solver learns it won from GET /orders and fills it on-chain through its
// Executor, split over two adapters. Also: an order past its deadline in chain time and an order whose nonce was
// invalidated are skipped, and a solver restarted while its fill is in flight does not send it again. When the chain
// loses its fills (anvil_reorg, or evm_revert as a devnet restarted from older state), the running solver resyncs
// its nonce and fills those orders again, and later ones too.
// The API status of a filled order is the indexer's business: these tests assert on-chain effects (the reorg test
// alone runs the indexer, to show the order going back to open and filled again).
import { type Address, type Hex, maxUint256, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liquidLaneAdapterViewAbi, reactorAbi } from "../../src/chain/abis.ts";
import { hashOrder } from "../../src/chain/order.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import type { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { type ReferenceSolver, startReferenceSolver } from "../../src/reference-solver/main.ts";
import { withMargin } from "../../src/reference-solver/pricing.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { approveReactor, indexUntilCaughtUp, quoteRequestBody, tokenBalance } from "../support/orders.ts";
import { createSwapTestApp } from "../support/swap.ts";
import {
  type CapturedLogs,
  captureLogs,
  deploySecondUsdAdapter,
  type LateListener,
  type LogEntry,
  type PlacedOrder,
  placeOrder,
  retireOpenOrders,
  SOLVER_ID,
  SOLVER_SECRET,
  solverConfig,
  solverKey,
  startLateListener,
  useCleanups,
} from "./support.ts";

const RWA = 10n ** 18n;
const USD = 10n ** 6n;
const MARGIN_BPS = 10;

const chain = useTestChain();
let secondAdapter: Address;
// One database for the file (a PGlite takes seconds to open); each test retires its open orders at the end.
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  for (const swapper of [chain.accounts.swapper, chain.accounts.swapper2])
    await approveReactor(chain, swapper);
  // A better rate (1.002 before the min discount) but only 300 tUSD to release: the best leg until it is full.
  secondAdapter = await deploySecondUsdAdapter(chain, {
    oraclePrice: 1_002n * 10n ** 15n,
    limit: 300n * USD,
    liquidity: 1_000n * USD,
  });
});

afterAll(async () => {
  await database?.close();
});

interface Flow {
  app: App;
  /** The server's order events: the test's own indexer publishes there, as the server's would. */
  orderEvents: OrderEvents;
  listener: LateListener;
  clock: ManualClock;
  solver: ReferenceSolver;
  logs: CapturedLogs;
}

const cleanups = useCleanups();

function adapters(): Address[] {
  return [chain.core.adapters.usd, chain.core.adapters.usdt, secondAdapter];
}

async function startSolver(
  apiUrl: string,
  pollIntervalMs?: number,
): Promise<{ solver: ReferenceSolver; logs: CapturedLogs }> {
  const logs = captureLogs();
  const solver = await startReferenceSolver(
    solverConfig(chain, {
      apiUrl,
      adapters: adapters(),
      marginBps: MARGIN_BPS,
      ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    }),
    { sharedSecret: SOLVER_SECRET, privateKey: solverKey(), logger: logs.logger },
  );
  let stopped = false;
  cleanups.add(async () => {
    if (!stopped) await solver.stop();
  });
  return {
    logs,
    solver: {
      ...solver,
      stop: async () => {
        stopped = true;
        await solver.stop();
      },
    },
  };
}

/** A Sluice swap server on the file's database with the reference solver as its one solver. */
async function startFlow(options: { pollIntervalMs?: number } = {}): Promise<Flow> {
  const listener = await startLateListener();
  cleanups.add(() => listener.close());
  const { solver, logs } = await startSolver(`${listener.url}/api/v1`, options.pollIntervalMs);
  const clock = new ManualClock(Number(await chain.now()) * 1000);
  const { app, runtime } = await createSwapTestApp(chain, database, {
    clock,
    solvers: [
      { id: SOLVER_ID, endpoint: solver.url, secret: SOLVER_SECRET, filler: chain.core.executors[0]! },
    ],
    deployment: { adapters: adapters().map((address) => ({ address })) },
  });
  cleanups.add(async () => {
    await retireOpenOrders(app, database, runtime.orderEvents);
    await app.close();
  });
  listener.attach((req, res) => app.routing(req, res));
  return { app, orderEvents: runtime.orderEvents, listener, clock, solver, logs };
}

const balanceOf = (token: Address, owner: Address) => tokenBalance(chain, token, owner);

function solverNonce(): Promise<number> {
  return chain.publicClient.getTransactionCount({
    address: chain.accounts.solver.address,
    blockTag: "latest",
  });
}

function isUsedNonce(swapper: Address, nonce: bigint): Promise<boolean> {
  return chain.publicClient.readContract({
    address: chain.core.reactor,
    abi: reactorAbi,
    functionName: "isUsedNonce",
    args: [swapper, nonce],
  });
}

/** Every `Fill` of the Reactor since `fromBlock`, by order hash. */
async function fillsSince(fromBlock: bigint): Promise<Hex[]> {
  const logs = await chain.publicClient.getContractEvents({
    address: chain.core.reactor,
    abi: reactorAbi,
    eventName: "Fill",
    fromBlock,
    toBlock: "latest",
  });
  return logs.map((log) => hashOrder(log.args.order!));
}

const skipped = (orderHash: Hex, reason: string) => (entry: LogEntry) =>
  entry.msg === "order skipped" && entry.orderHash === orderHash && entry.reason === reason;
const sent = (orderHash: Hex) => (entry: LogEntry) =>
  entry.msg === "transaction sent" && entry.key === orderHash;
const filled = (orderHash: Hex) => (entry: LogEntry) =>
  entry.msg === "order filled" && entry.orderHash === orderHash;

/** The block that mined the transaction `entry` names (`txHash`). */
async function blockOf(entry: LogEntry): Promise<bigint> {
  return (await chain.publicClient.getTransactionReceipt({ hash: entry.txHash as Hex })).blockNumber;
}

/** anvil_reorg: the blocks from `block` to the head are replaced by as many empty ones. */
async function reorgFrom(block: bigint): Promise<void> {
  const head = await chain.publicClient.getBlockNumber();
  await chain.testClient.request({
    method: "anvil_reorg" as never,
    params: [Number(head - block + 1n), []] as never,
  });
}

describe("reference solver on anvil with a Sluice swap server", () => {
  it("fills a won order on-chain over the best legs, paying exactly the committed outputs, once", async () => {
    const flow = await startFlow();
    const { core, accounts } = chain;
    const swapper = accounts.swapper.address;
    const executor = core.executors[0]!;
    const startBlock = await chain.publicClient.getBlockNumber();
    const nonceBefore = await solverNonce();
    const before = {
      swapperRwa: await balanceOf(core.tokens.rwa, swapper),
      swapperUsd: await balanceOf(core.tokens.usd, swapper),
      executorUsd: await balanceOf(core.tokens.usd, executor),
      firstAdapterRwa: await balanceOf(core.tokens.rwa, core.adapters.usd),
      secondAdapterRwa: await balanceOf(core.tokens.rwa, secondAdapter),
    };

    const placed = await placeOrder(chain, flow.app, 1000n * RWA);
    const filled = await flow.logs.waitFor(
      (e) => e.msg === "order filled" && e.orderHash === placed.orderHash,
      {
        what: "the fill",
      },
    );

    // The Fill event is this order, with the committed outputs.
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: filled.txHash as Hex });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(accounts.solver.address.toLowerCase());
    expect(receipt.to?.toLowerCase()).toBe(executor.toLowerCase());
    const events = parseEventLogs({ abi: reactorAbi, logs: receipt.logs, eventName: "Fill" });
    expect(events).toHaveLength(1);
    expect(hashOrder(events[0]!.args.order)).toBe(placed.orderHash);
    expect(events[0]!.args.order.filler.toLowerCase()).toBe(executor.toLowerCase());
    expect(events[0]!.args.order.outputs.map((o) => o.amount)).toEqual(placed.committed.map((o) => o.amount));
    expect(await isUsedNonce(swapper, placed.nonce)).toBe(true);

    // Two legs, best rate first: the second adapter up to its 300 tUSD, the first one for the rest.
    const legs = filled.legs as Array<{ adapter: string; amountIn: string; amountOut: string }>;
    expect(legs.map((leg) => leg.adapter.toLowerCase())).toEqual([
      secondAdapter.toLowerCase(),
      core.adapters.usd.toLowerCase(),
    ]);
    const legIn = legs.map((leg) => BigInt(leg.amountIn));
    const legOut = legs.map((leg) => BigInt(leg.amountOut));
    expect(legIn[0]! + legIn[1]!).toBe(1000n * RWA);
    expect(legOut[0]).toBe(300n * USD - 1n);
    const remainingCapacity = await chain.publicClient.readContract({
      address: secondAdapter,
      abi: liquidLaneAdapterViewAbi,
      functionName: "getMaxAssets",
      args: [core.tokens.rwa],
    });
    expect(remainingCapacity).toBe(1n);

    // The quote was what the same legs pay, less the margin; the hard round met it exactly.
    const committedTotal = placed.committed.reduce((sum, o) => sum + o.amount, 0n);
    expect(placed.quotedAmount).toBe(withMargin(legOut[0]! + legOut[1]!, MARGIN_BPS));
    expect(committedTotal).toBe(placed.quotedAmount);

    // Balances moved by exactly the order: the input to the adapters by leg, the committed outputs to the
    // swapper, and what the legs released beyond them stays with the Executor (the solver's margin).
    expect(await balanceOf(core.tokens.rwa, swapper)).toBe(before.swapperRwa - 1000n * RWA);
    expect(await balanceOf(core.tokens.usd, swapper)).toBe(before.swapperUsd + committedTotal);
    expect(await balanceOf(core.tokens.rwa, secondAdapter)).toBe(before.secondAdapterRwa + legIn[0]!);
    expect(await balanceOf(core.tokens.rwa, core.adapters.usd)).toBe(before.firstAdapterRwa + legIn[1]!);
    expect(await balanceOf(core.tokens.usd, executor)).toBe(
      before.executorUsd + legOut[0]! + legOut[1]! - committedTotal,
    );

    // The API still lists the order as open (no indexer here): later polls see it and send nothing.
    let last = filled;
    for (let i = 0; i < 3; i++) {
      last = await flow.logs.waitFor((e) => e.msg === "open orders polled" && e.open === 1, { after: last });
    }
    expect(await solverNonce()).toBe(nonceBefore + 1);
    expect(await fillsSince(startBlock)).toEqual([placed.orderHash]);
  });

  it("learns of a won order from the order stream at once, a minute before its next poll", async () => {
    const flow = await startFlow({ pollIntervalMs: 60_000 });
    await flow.logs.waitFor((e) => e.msg === "order stream open", { what: "the order stream" });
    await flow.logs.waitFor((e) => e.msg === "open orders polled", { what: "the first poll" });
    // Its first poll ran at start; the next one is a minute away: only the stream can wake it for this order.
    const placed = await placeOrder(chain, flow.app, 10n * RWA);
    const filled = await flow.logs.waitFor(
      (e) => e.msg === "order filled" && e.orderHash === placed.orderHash,
      { what: "the fill" },
    );
    expect(filled.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("skips an order whose deadline has passed in chain time", async () => {
    const flow = await startFlow();
    const swapper = chain.accounts.swapper.address;
    const rwaBefore = await balanceOf(chain.core.tokens.rwa, swapper);
    const nonceBefore = await solverNonce();
    // Sluice is unreachable for the solver's poll while the order ages past its deadline.
    flow.listener.holdOrders(true);
    const placed = await placeOrder(chain, flow.app, 10n * RWA);
    const now = await chain.now();
    await chain.increaseTime(Number(placed.deadline - now) + 5);
    expect(await chain.now()).toBeGreaterThan(placed.deadline);
    flow.listener.holdOrders(false);

    const entry = await flow.logs.waitFor(skipped(placed.orderHash, "expired"), { what: "the expired skip" });
    expect(BigInt(entry.chainTime as string)).toBeGreaterThan(placed.deadline);
    expect(flow.logs.entries.some((e) => e.msg === "order poll failed; retrying")).toBe(true);
    expect(await isUsedNonce(swapper, placed.nonce)).toBe(false);
    expect(await balanceOf(chain.core.tokens.rwa, swapper)).toBe(rwaBefore);
    expect(await solverNonce()).toBe(nonceBefore);
  });

  it("skips an order whose nonce the swapper invalidated", async () => {
    const flow = await startFlow();
    const swapper = chain.accounts.swapper2;
    const rwaBefore = await balanceOf(chain.core.tokens.rwa, swapper.address);
    const nonceBefore = await solverNonce();
    const startBlock = await chain.publicClient.getBlockNumber();
    flow.listener.holdOrders(true);
    const placed = await placeOrder(chain, flow.app, 10n * RWA, swapper);
    const hash = await chain.wallet(swapper).writeContract({
      address: chain.core.reactor,
      abi: reactorAbi,
      functionName: "invalidateNonce",
      args: [placed.nonce],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    flow.listener.holdOrders(false);

    await flow.logs.waitFor(skipped(placed.orderHash, "nonce_used"), { what: "the used-nonce skip" });
    expect(await balanceOf(chain.core.tokens.rwa, swapper.address)).toBe(rwaBefore);
    expect(await solverNonce()).toBe(nonceBefore);
    expect(await fillsSince(startBlock)).toEqual([]);
  });

  it("logs the named revert of a fill that would fail, sends nothing, and fills once it can", async () => {
    const flow = await startFlow();
    const swapper = chain.accounts.swapper2;
    const nonceBefore = await solverNonce();
    const approve = (amount: bigint) => approveReactor(chain, swapper, amount);
    flow.listener.holdOrders(true);
    const placed = await placeOrder(chain, flow.app, 10n * RWA, swapper);
    await approve(0n);
    flow.listener.holdOrders(false);

    const warning = await flow.logs.waitFor(
      (e) =>
        e.msg === "order not fillable now; trying again at the next poll" && e.orderHash === placed.orderHash,
      { what: "the rejected fill" },
    );
    expect(warning.reason).toBe("would_revert:ERC20InsufficientAllowance");
    expect(await solverNonce()).toBe(nonceBefore);

    await approve(maxUint256);
    await flow.logs.waitFor((e) => e.msg === "order filled" && e.orderHash === placed.orderHash, {
      what: "the fill after the approval",
    });
    expect(await solverNonce()).toBe(nonceBefore + 1);
    // Logged once while the condition lasted, not at every poll.
    expect(flow.logs.entries.filter((e) => e.reason === warning.reason)).toHaveLength(1);
  });

  it("after a restart with its fill still in flight, waits for it and does not send the order again", async () => {
    const flow = await startFlow();
    const startBlock = await chain.publicClient.getBlockNumber();
    const nonceBefore = await solverNonce();
    const usdBefore = await balanceOf(chain.core.tokens.usd, chain.accounts.swapper.address);
    // Blocks are mined by hand from here: the first run's transaction stays pending across the restart.
    await chain.testClient.setAutomine(false);
    try {
      const placed = await placeOrder(chain, flow.app, 10n * RWA);
      const sent = await flow.logs.waitFor(
        (e) => e.msg === "transaction sent" && e.key === placed.orderHash,
        {
          what: "the first run's fill transaction",
        },
      );
      await flow.solver.stop();

      const restarted = await startSolver(`${flow.listener.url}/api/v1`);
      await restarted.logs.waitFor((e) => e.msg === "waiting for in-flight transactions before filling", {
        what: "the restarted solver to see the transaction in flight",
      });
      await chain.mine(1);
      await restarted.logs.waitFor((e) => e.msg === "sender ready: no transaction in flight");
      await restarted.logs.waitFor(skipped(placed.orderHash, "nonce_used"), {
        what: "the restarted solver to skip the order its first run filled",
      });

      const receipt = await chain.publicClient.getTransactionReceipt({ hash: sent.hash as Hex });
      expect(receipt.status).toBe("success");
      expect(await solverNonce()).toBe(nonceBefore + 1);
      expect(await fillsSince(startBlock)).toEqual([placed.orderHash]);
      expect(await balanceOf(chain.core.tokens.usd, chain.accounts.swapper.address)).toBe(
        usdBefore + placed.committed[0]!.amount,
      );
      expect(restarted.logs.entries.some((e) => e.msg === "transaction sent")).toBe(false);
    } finally {
      await chain.testClient.setAutomine(true);
    }
  });

  it("declines through Sluice when its adapters cannot take the whole amount (404 NO_QUOTES)", async () => {
    const flow = await startFlow();
    // 1,000,300 tUSD of capacity in all: two million tRWA cannot be placed.
    const response = await flow.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 2_000_000n * RWA, swapper: chain.accounts.swapper.address }),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("NO_QUOTES");
    const line = await flow.logs.waitFor((e) => e.msg === "quote request" && e.status === 204);
    expect(line.declined).toBe("insufficient_capacity");
  });
});

describe("reference solver when the chain loses its fills", () => {
  it("fills an order again after a reorg drops its fill, and fills later orders, without a restart", async () => {
    const flow = await startFlow();
    const swapper = chain.accounts.swapper.address;
    const startBlock = await chain.publicClient.getBlockNumber();
    const nonceBefore = await solverNonce();
    const usdBefore = await balanceOf(chain.core.tokens.usd, swapper);
    const indexer = new ReactorIndexer({
      orderObserver: new OrderStats(),
      database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock,
      orderEvents: flow.orderEvents,
      clock: flow.clock,
      logger: silentLogger(),
    });
    const catchUp = () => indexUntilCaughtUp(indexer);
    const orders = new OrderRepository(database, flow.orderEvents, new OrderStats());

    const placed = await placeOrder(chain, flow.app, 10n * RWA);
    const first = await flow.logs.waitFor(filled(placed.orderHash), { what: "the first fill" });
    await catchUp();
    expect(await orders.findById(placed.orderId)).toMatchObject({ status: "filled", txHash: first.txHash });

    // The solver refills the order as soon as Sluice reopens it: with automine its transaction could be mined and
    // indexed within the same catch-up (seen in CI), so it waits in the mempool until the reopened order is checked.
    await chain.testClient.setAutomine(false);
    try {
      await reorgFrom(await blockOf(first));
      expect(
        await chain.publicClient.getTransactionReceipt({ hash: first.txHash as Hex }).catch(() => null),
      ).toBeNull();
      expect(await isUsedNonce(swapper, placed.nonce)).toBe(false);
      await catchUp();
      expect(await orders.findById(placed.orderId)).toMatchObject({ status: "open", txHash: null });
    } finally {
      await chain.testClient.setAutomine(true);
    }
    await chain.mine(1);

    // (a) The same order, open again with its nonce unused, is filled again.
    const again = await flow.logs.waitFor(filled(placed.orderHash), {
      what: "the fill after the reorg",
      after: first,
    });
    expect(again.txHash).not.toBe(first.txHash);
    await catchUp();
    expect(await orders.findById(placed.orderId)).toMatchObject({ status: "filled", txHash: again.txHash });
    expect((await orders.history(placed.orderId)).map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "open"],
      ["open", "filled"],
      ["filled", "open"],
      ["open", "filled"],
    ]);

    // (b) A later order is filled too: the nonce follows the chain again.
    const later = await placeOrder(chain, flow.app, 20n * RWA);
    await flow.logs.waitFor(filled(later.orderHash), { what: "the later order's fill" });
    await catchUp();
    expect(await orders.findById(later.orderId)).toMatchObject({ status: "filled" });

    expect(await fillsSince(startBlock)).toEqual([placed.orderHash, later.orderHash]);
    expect(await solverNonce()).toBe(nonceBefore + 2);
    expect(await balanceOf(chain.core.tokens.usd, swapper)).toBe(
      usdBefore + placed.committed[0]!.amount + later.committed[0]!.amount,
    );
    const resync = flow.logs.entries.find(
      (e) => e.msg === "the chain lost transactions of this account; nonce resynchronised",
    );
    expect(resync).toMatchObject({
      chainNonce: nonceBefore,
      previousNonce: nonceBefore + 1,
      nonce: nonceBefore,
    });
  });

  it("when a reorg drops its fill while the next one is pending, fills both again, neither twice at once", async () => {
    const flow = await startFlow();
    const swapper = chain.accounts.swapper.address;
    const startBlock = await chain.publicClient.getBlockNumber();
    const nonceBefore = await solverNonce();
    const usdBefore = await balanceOf(chain.core.tokens.usd, swapper);
    // Blocks are mined by hand until the reorg: the second fill is still pending when it drops the first one.
    await chain.testClient.setAutomine(false);
    let second: PlacedOrder;
    let first: PlacedOrder;
    try {
      first = await placeOrder(chain, flow.app, 10n * RWA);
      await flow.logs.waitFor(sent(first.orderHash), { what: "the first fill transaction" });
      await chain.mine(1);
      const firstFilled = await flow.logs.waitFor(filled(first.orderHash), { what: "the first fill" });
      second = await placeOrder(chain, flow.app, 20n * RWA);
      await flow.logs.waitFor(sent(second.orderHash), { what: "the second fill transaction" });
      await reorgFrom(await blockOf(firstFilled));
    } finally {
      await chain.testClient.setAutomine(true);
    }
    // The pending fill's nonce is above the chain's now: anvil drops it when it mines its next block.
    await chain.mine(1);
    const drop = await flow.logs.waitFor(
      (e) => e.msg === "fill dropped before it was mined; planning it again at the next poll",
      { what: "the pending fill noticed as dropped" },
    );
    expect(drop.orderHash).toBe(second.orderHash);

    // Both orders (still open: no indexer here), their nonces unused, are filled again, oldest first.
    await flow.logs.waitFor(filled(second.orderHash), { what: "the second order filled", after: drop });
    const firstAgain = flow.logs.entries.filter(filled(first.orderHash));
    expect(firstAgain).toHaveLength(2);
    expect(await fillsSince(startBlock)).toEqual([first.orderHash, second.orderHash]);
    expect(await solverNonce()).toBe(nonceBefore + 2);
    expect(await balanceOf(chain.core.tokens.usd, swapper)).toBe(
      usdBefore + first.committed[0]!.amount + second.committed[0]!.amount,
    );
    // Each order was sent again only once its earlier transaction was gone.
    const sends = flow.logs.entries.filter((e) => e.msg === "transaction sent").map((e) => e.key);
    expect(sends).toEqual([first.orderHash, second.orderHash, first.orderHash, second.orderHash]);
    const secondResent = flow.logs.entries.filter(sent(second.orderHash))[1]!;
    expect(flow.logs.entries.indexOf(secondResent)).toBeGreaterThan(flow.logs.entries.indexOf(drop));
  });

  it("after the chain falls below its nonce (a devnet restarted from older state), fills again and on", async () => {
    const flow = await startFlow();
    const nonceBefore = await solverNonce();
    const startBlock = await chain.publicClient.getBlockNumber();
    const beforeFill = await chain.snapshot();
    const placed = await placeOrder(chain, flow.app, 10n * RWA);
    const first = await flow.logs.waitFor(filled(placed.orderHash), { what: "the first fill" });

    // The chain goes back to before the fill, as a devnet whose state file was saved before it would.
    await chain.revert(beforeFill);
    expect(await solverNonce()).toBe(nonceBefore);
    expect(await chain.publicClient.getBlockNumber()).toBe(startBlock);

    await flow.logs.waitFor(filled(placed.orderHash), {
      what: "the fill on the shorter chain",
      after: first,
    });
    const later = await placeOrder(chain, flow.app, 20n * RWA);
    await flow.logs.waitFor(filled(later.orderHash), { what: "the later order's fill" });
    expect(await fillsSince(startBlock)).toEqual([placed.orderHash, later.orderHash]);
    expect(await solverNonce()).toBe(nonceBefore + 2);
  });
});

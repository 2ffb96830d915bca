// The fade breaker on anvil (issue 15 item 2): a solver that wins orders and never fills them enters cooldown after
// the threshold, is left out of the next auction and of /liquidity, doubles on a repeat and comes back when its
// cooldown is over — on the injected clock, no sleeping; a replica that did not see the fades honours the stored
// state; and nobody can push a solver into cooldown (flooding /quote, orders posted seconds before their deadline,
// a pulled allowance). On PGlite and PostgreSQL.
import type { Address, LocalAccount } from "viem";
import { maxUint256 } from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testERC20Abi } from "../../src/chain/abis.ts";
import type { Database } from "../../src/db/client.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  indexUntilCaughtUp,
  placeOrder,
  quoteRequestBody,
  signedQuote,
} from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

const chain = useTestChain();
const MINUTE = 60_000;
const FADER = "ext_fader";
const BACKUP = "ext_backup";

describe.each(databaseKinds)("solver cooldowns on the devnet (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  let database: Database;
  let fader: ScriptedSolver;
  let backup: ScriptedSolver;
  let subject: SwapTestApp;
  const opened: SwapTestApp[] = [];

  // The fader always bids best (99% of the input) and never fills; the backup bids 98%.
  const bid = (percent: bigint) => ({
    kind: "quote" as const,
    filler: chain.core.executors[0]!,
    amountOut: (request: { amount: string }) => (BigInt(request.amount) * percent) / 100n / 10n ** 12n,
  });

  const openApp = async () => {
    const app = await createSwapTestApp(chain, database, {
      clock,
      solvers: [
        { id: FADER, endpoint: fader.url },
        { id: BACKUP, endpoint: backup.url },
      ],
    });
    opened.push(app);
    return app;
  };

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    fader = await startScriptedSolver(bid(99n));
    backup = await startScriptedSolver(bid(98n));
    clock.set(Number(await chain.now()) * 1000);
    // Four funded swappers: two funded at deployment, two more from the first's tRWA.
    for (const account of [chain.accounts.other, chain.accounts.feeRecipient]) {
      const hash = await chain.wallet(chain.accounts.swapper).writeContract({
        address: chain.core.tokens.rwa,
        abi: testERC20Abi,
        functionName: "transfer",
        args: [account.address, 1000n * 10n ** 18n],
      });
      await chain.publicClient.waitForTransactionReceipt({ hash });
    }
    for (const swapper of swappers()) await approveReactor(chain, swapper);
    // Index from the current head on.
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    await database.query(
      "insert into indexed_blocks (number, hash, parent_hash, timestamp) values ($1, $2, $3, $4)",
      [head.number.toString(), head.hash, head.parentHash, head.timestamp.toString()],
    );
    subject = await openApp();
  });

  afterEach(async () => {
    for (const app of opened.splice(0)) await app.close();
    await fader.close();
    await backup.close();
    await database.close();
  });

  const swappers = (): LocalAccount[] => [
    chain.accounts.swapper,
    chain.accounts.swapper2,
    chain.accounts.other,
    chain.accounts.feeRecipient,
  ];
  const cooldowns = (app = subject) => app.sluice.deployment!.cooldowns;

  /** Mines a block `seconds` later in chain time, moves the clock with it, and indexes up to it. */
  const passChainTime = async (seconds: number, app = subject) => {
    await chain.increaseTime(seconds);
    clock.set(Number(await chain.now()) * 1000);
    await indexUntilCaughtUp(app.runtime.indexer);
  };

  /** Each swapper's order goes to the fader (best bid), which never fills: all expire at the next indexed block. */
  const fadeOrders = async (accounts: readonly LocalAccount[]) => {
    for (const swapper of accounts) {
      const order = await placeOrder(chain, subject.app, database, { swapper, amount: 10n ** 18n });
      expect(order.solverId).toBe(FADER);
    }
    await passChainTime(200);
  };

  const quoteSolvers = async (app = subject) => {
    const response = await app.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 10n ** 18n, swapper: chain.accounts.swapper.address }),
    });
    expect(response.statusCode).toBe(200);
    return response.json().quotes.map((entry: { solver: { id: string } }) => entry.solver.id);
  };

  const liquiditySolvers = async (app = subject) => {
    const response = await app.app.inject({
      method: "POST",
      url: "/api/v1/liquidity",
      payload: { tokenIn: chain.core.tokens.rwa },
    });
    expect(response.statusCode).toBe(200);
    return response
      .json()
      .solvers.map((entry: { solverId: string }) => entry.solverId)
      .sort();
  };

  const gauge = async (app = subject) => {
    const metrics = await app.internal.inject({ method: "GET", url: "/metrics" });
    const line = metrics.body
      .split("\n")
      .find((l) => l.startsWith(`sluice_solver_in_cooldown{solver="${FADER}"}`));
    return line?.split(" ")[1];
  };

  const history = async () =>
    (await cooldowns().repository.history(FADER)).map((event) => [event.kind, event.reason.split(" (")[0]]);

  it("cools a solver whose won orders expire, leaves it out, doubles on a repeat and lets it back in", async () => {
    expect(await liquiditySolvers()).toEqual([BACKUP, FADER]);
    expect(await gauge()).toBe("0");

    // Two fades (more than 2 of the last 10 is the default threshold): not yet.
    await fadeOrders(swappers().slice(0, 2));
    expect(cooldowns().view.cooldownOf(FADER)).toBeNull();

    // The third: cooldown, 15 minutes from now.
    await fadeOrders(swappers().slice(2, 3));
    const first = cooldowns().view.cooldownOf(FADER);
    expect(first).toEqual({
      until: new Date(clock.now().getTime() + 15 * MINUTE),
      reason: expect.any(String),
    });
    expect(first!.reason).toBe("faded 3 of its last 3 assigned orders that ended");
    expect(await gauge()).toBe("1");
    // The scorecards show it (GET /solvers reads the same view).
    const listed = await subject.app.inject({ method: "GET", url: `/api/v1/solvers/${FADER}` });
    expect(listed.json()).toMatchObject({
      id: FADER,
      cooldownUntil: first!.until.toISOString(),
      cooldownReason: first!.reason,
    });

    // Left out of the next /quote round (never asked), of /liquidity, and of a hard round.
    const asked = fader.requests.length;
    expect(await quoteSolvers()).toEqual([BACKUP]);
    expect(fader.requests.length).toBe(asked);
    expect(await liquiditySolvers()).toEqual([BACKUP]);
    const order = await placeOrder(chain, subject.app, database, { swapper: chain.accounts.swapper });
    expect(order.solverId).toBe(BACKUP);
    expect(fader.requests.length).toBe(asked);
    // It still sees its own orders (it counts as enabled for GET /orders).
    const own = await subject.app.inject({
      method: "GET",
      url: `/api/v1/orders?solverId=${FADER}&orderStatus=expired`,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().orders).toHaveLength(3);

    // Its time is up: back in at once, on the clock alone; the end is recorded at the next refresh.
    clock.advance(15 * MINUTE + 1000);
    expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
    expect(await quoteSolvers()).toEqual([FADER, BACKUP]);
    expect(await liquiditySolvers()).toEqual([BACKUP, FADER]);
    await cooldowns().view.refresh();
    expect(await history()).toEqual([
      ["start", "faded 3 of its last 3 assigned orders that ended"],
      ["end", "elapsed"],
    ]);

    // The fades before the cooldown ended no longer count: two new ones are not enough…
    await chain.increaseTime(15 * 60);
    clock.set(Number(await chain.now()) * 1000);
    await indexUntilCaughtUp(subject.runtime.indexer);
    await fadeOrders(swappers().slice(0, 2));
    expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
    // …a third, within the 24 h repeat window, starts a cooldown twice as long.
    await fadeOrders(swappers().slice(2, 3));
    expect(cooldowns().view.cooldownOf(FADER)?.until).toEqual(new Date(clock.now().getTime() + 30 * MINUTE));
    expect(await quoteSolvers()).toEqual([BACKUP]);

    clock.advance(30 * MINUTE + 1000);
    expect(await quoteSolvers()).toEqual([FADER, BACKUP]);

    // An order it won before a cooldown is still its to fill: GET /orders gives it the execution fields.
    await chain.increaseTime(30 * 60);
    clock.set(Number(await chain.now()) * 1000);
    const won = await placeOrder(chain, subject.app, database, { swapper: chain.accounts.swapper });
    expect(won.solverId).toBe(FADER);
    await cooldowns().repository.set(FADER, new Date(clock.now().getTime() + 60 * MINUTE), clock.now());
    await cooldowns().view.refresh();
    expect(await quoteSolvers()).toEqual([BACKUP]);
    const open = await subject.app.inject({
      method: "GET",
      url: `/api/v1/orders?solverId=${FADER}&orderStatus=open`,
    });
    expect(open.json().orders).toEqual([
      expect.objectContaining({ orderId: won.orderId, encodedOrder: won.encodedOrder }),
    ]);
  });

  it("is honoured by a replica that did not observe the fades", async () => {
    // The replica runs no indexer and never saw an order end: it learns from the stored state alone.
    const replica = await openApp();
    await cooldowns(replica).view.start();
    expect(await quoteSolvers(replica)).toEqual([FADER, BACKUP]);

    await fadeOrders(swappers().slice(0, 3));
    expect(cooldowns().view.cooldownOf(FADER)).not.toBeNull();

    // Its refresh timer (every 200 ms) picks the cooldown up; no clock moves, so only the stored state can tell it.
    const seenAt = Date.now();
    while (cooldowns(replica).view.cooldownOf(FADER) === null) {
      if (Date.now() - seenAt > 2000) throw new Error("the replica never saw the cooldown");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await quoteSolvers(replica)).toEqual([BACKUP]);
    expect(await liquiditySolvers(replica)).toEqual([BACKUP]);
    expect(await gauge(replica)).toBe("1");

    // The operator's lift (stored the same way) reaches it too.
    await cooldowns().repository.lift(FADER, clock.now());
    await cooldowns(replica).view.refresh();
    expect(await quoteSolvers(replica)).toEqual([FADER, BACKUP]);
  });

  it("forgets the outcome of an expiry a reorg undid", async () => {
    const order = await placeOrder(chain, subject.app, database, { swapper: chain.accounts.swapper });
    const beforeExpiry = await chain.snapshot();
    await passChainTime(200);
    expect(await outcomes()).toEqual(["faded"]);
    // The chain loses the expiring block (shorter than what was indexed: a reorg), then grows again without it.
    await chain.revert(beforeExpiry);
    await chain.mine(1);
    await indexUntilCaughtUp(subject.runtime.indexer);
    const [row] = await database.query<{ status: string }>("select status from orders where order_id = $1", [
      order.orderId,
    ]);
    expect(row?.status).toBe("open");
    expect(await outcomes()).toEqual([]);
  });

  describe("nobody can push a solver into cooldown", () => {
    it("flooding /quote: failures count only where another solver quoted, once per swapper per minute", async () => {
      fader.setBehaviour({ kind: "status", status: 500 });
      const quote = (swapper: Address, solverIds?: string[]) =>
        subject.app.inject({
          method: "POST",
          url: "/api/v1/quote",
          payload: {
            ...quoteRequestBody(chain, { amount: 10n ** 18n, swapper }),
            ...(solverIds ? { solverIds } : {}),
          },
        });
      // solverIds of the failing solver alone: nobody else quoted, nothing counts.
      for (let i = 0; i < 40; i++)
        expect((await quote(chain.accounts.swapper.address, [FADER])).statusCode).toBe(404);
      expect(cooldowns().failures.windowOf(FADER)).toEqual({ failures: 0, counted: 0 });
      // One swapper, both solvers: one failure per minute counts.
      for (let i = 0; i < 40; i++) expect((await quote(chain.accounts.swapper.address)).statusCode).toBe(200);
      expect(cooldowns().failures.windowOf(FADER)).toEqual({ failures: 1, counted: 1 });
      await cooldowns().failures.idle();
      expect(cooldowns().view.cooldownOf(FADER)).toBeNull();

      // The check itself works: a solver failing for twenty different swappers is cooled.
      for (let i = 1; i <= 20; i++) await quote(`0x${i.toString(16).padStart(40, "a")}` as Address);
      await cooldowns().failures.idle();
      expect(cooldowns().view.cooldownOf(FADER)?.reason).toBe(
        "failed to answer 20 of its last 20 counted auctions",
      );
    });

    it("orders posted seconds before their deadline are no fade", async () => {
      for (const swapper of swappers().slice(0, 3)) {
        const { quote, signature } = await signedQuoteFor(swapper);
        // 110 s into the 120 s quote lifetime: 10 s to fill, below minFillWindowSeconds (30).
        clock.advance(110_000);
        const posted = await subject.app.inject({
          method: "POST",
          url: "/api/v1/order",
          payload: { quote, signature },
        });
        expect(posted.statusCode).toBe(200);
        clock.advance(-110_000);
      }
      await passChainTime(200);
      expect(await outcomes()).toEqual(["excused", "excused", "excused"]);
      expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
    });

    it("a swapper pulling its allowance before the deadline is no fade", async () => {
      for (const swapper of swappers().slice(0, 3)) {
        await placeOrder(chain, subject.app, database, { swapper, amount: 10n ** 18n });
        // One indexed block without the allowance, then back: the order stays open but was not fillable throughout.
        await approveReactor(chain, swapper, 0n);
        await indexUntilCaughtUp(subject.runtime.indexer);
        await approveReactor(chain, swapper, maxUint256);
        await indexUntilCaughtUp(subject.runtime.indexer);
      }
      await passChainTime(200);
      const statuses = await database.query<{ status: string }>("select status from orders");
      expect(statuses.map((row) => row.status)).toEqual(["expired", "expired", "expired"]);
      expect(await outcomes()).toEqual(["excused", "excused", "excused"]);
      expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
    });

    it("one swapper letting many orders expire counts once", async () => {
      for (let i = 0; i < 4; i++)
        await placeOrder(chain, subject.app, database, {
          swapper: chain.accounts.swapper,
          amount: 10n ** 18n,
        });
      await passChainTime(200);
      expect(await outcomes()).toEqual(["faded", "faded", "faded", "faded"]);
      expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
    });
  });

  const outcomes = async () =>
    (await database.query<{ outcome: string }>("select outcome from solver_order_outcomes order by id")).map(
      (row) => row.outcome,
    );

  const signedQuoteFor = (swapper: LocalAccount) =>
    signedQuote(chain, subject.app, { swapper, amount: 10n ** 18n });
});

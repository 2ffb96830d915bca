// The order lifecycle of DESIGN.md §7 on anvil: fills, cancellations, expiry, insufficient funds and errors, each
// judged at the indexed block and written once in the status history; on PGlite and PostgreSQL.
import { maxUint256 } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reactorAbi } from "../../src/chain/abis.ts";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  indexUntilCaughtUp,
  placeOrder,
  useQuotingSwapApp,
} from "../support/orders.ts";

const chain = useTestChain();

describe.each(databaseKinds)("order lifecycle (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);
  let orders: OrderRepository;

  beforeAll(() => {
    orders = new OrderRepository(swap.database, swap.orderEvents, new OrderStats());
  });

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    // The chain was reverted to its snapshot: drop the previous test's orders and index from the current head on.
    await swap.database.query(
      "truncate orders, order_attempts, order_status_history, order_funding_streaks, reactor_fills, nonce_invalidations, indexed_blocks",
    );
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    await swap.database.query(
      "insert into indexed_blocks (number, hash, parent_hash, timestamp) values ($1, $2, $3, $4)",
      [head.number.toString(), head.hash, head.parentHash, head.timestamp.toString()],
    );
  });

  const indexer = (confirmationDepth = 0) =>
    new ReactorIndexer({
      orderObserver: new OrderStats(),
      database: swap.database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth,
      startBlock: chain.core.startBlock,
      orderEvents: swap.orderEvents,
      clock,
      logger: silentLogger(),
    });

  const history = async (orderId: string) =>
    (await orders.history(orderId)).map((h) => [h.fromStatus, h.toStatus, h.reason.split(":")[0]]);

  it("marks a filled order filled with its txHash and the committed outputs as settled amounts", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    const txHash = await fillOrder(chain, row);
    await indexUntilCaughtUp(indexer());
    const filled = await orders.findById(row.orderId);
    expect(filled).toMatchObject({ status: "filled", txHash });
    expect(filled?.settledAmounts).toEqual(
      row.outputs.map((o) => ({ token: o.token, amount: o.amount, recipient: o.recipient, txHash })),
    );
    expect(await history(row.orderId)).toEqual([
      [null, "open", "created"],
      ["open", "filled", "Fill event"],
    ]);
    // Seen again, nothing is written twice.
    await indexUntilCaughtUp(indexer());
    expect(await history(row.orderId)).toHaveLength(2);
  });

  it("cancels an order whose nonce the swapper invalidated on-chain", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    const hash = await chain.wallet(chain.accounts.swapper).writeContract({
      address: chain.core.reactor,
      abi: reactorAbi,
      functionName: "invalidateNonce",
      args: [BigInt(row.nonce)],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await indexUntilCaughtUp(indexer());
    expect((await orders.findById(row.orderId))?.status).toBe("cancelled");
    expect(await history(row.orderId)).toEqual([
      [null, "open", "created"],
      ["open", "cancelled", "swapper invalidated the nonce"],
    ]);
  });

  it("expires an order once an indexed block's time is past its deadline, not before", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    const target = indexer();
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("open");
    const now = await chain.now();
    await chain.increaseTime(Number(BigInt(row.deadline) - now) + 1);
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("expired");
    expect((await history(row.orderId)).at(-1)).toEqual([
      "open",
      "expired",
      `deadline ${row.deadline} passed at block time ${await chain.now()}`,
    ]);
  });

  it("marks insufficient-funds after three consecutive underfunded blocks, and a later Fill still wins", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    const target = indexer();
    await indexUntilCaughtUp(target);
    await approveReactor(chain, chain.accounts.swapper, 0n);
    await indexUntilCaughtUp(target);
    await chain.mine(1);
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("open");
    await chain.mine(1);
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("insufficient-funds");
    expect((await history(row.orderId)).at(-1)?.[1]).toBe("insufficient-funds");

    await approveReactor(chain, chain.accounts.swapper, maxUint256);
    const txHash = await fillOrder(chain, row);
    await indexUntilCaughtUp(target);
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash });
  });

  it("marks an order error when its nonce is consumed without a Fill of it", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    // Another order from the same swapper with the same nonce would consume it; here we fill this order's Request
    // under a different Order (another filler-side commitment), which uses the nonce but is not this order's hash.
    const other = await placeOrder(chain, swap.app, swap.database);
    await swap.database.query("update orders set nonce = $1 where order_id = $2", [other.nonce, row.orderId]);
    await fillOrder(chain, other);
    await indexUntilCaughtUp(indexer());
    expect((await orders.findById(other.orderId))?.status).toBe("filled");
    expect((await orders.findById(row.orderId))?.status).toBe("error");
  });

  it("waits for the confirmation depth before applying a fill, and never judges at latest", async () => {
    const row = await placeOrder(chain, swap.app, swap.database);
    const target = indexer(2);
    await fillOrder(chain, row);
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("open");
    await chain.mine(2);
    await indexUntilCaughtUp(target);
    expect((await orders.findById(row.orderId))?.status).toBe("filled");
  });
});

// A reorg that removes a fill (anvil_reorg, confirmation depth 0, this file's own anvil): the indexer rewinds the
// order to open, and when the fill lands again it is filled again — every step visible in the status history.
// A chain that became shorter than what was indexed (a devnet's anvil killed before it saved its state, here an
// evm_revert) is the same: a reorg, rewound, never an error.
import { describe, expect, it } from "vitest";
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

describe.each(databaseKinds)("reorg (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);

  const indexerFromHead = async () =>
    new ReactorIndexer({
      orderObserver: new OrderStats(),
      database: swap.database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock: (await chain.publicClient.getBlockNumber()) + 1n,
      orderEvents: swap.orderEvents,
      clock,
      logger: silentLogger(),
    });

  it("rewinds a fill removed by a reorg and applies it again when it lands again", async () => {
    const { database, app } = swap;
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    const indexer = new ReactorIndexer({
      orderObserver: new OrderStats(),
      database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock: head.number,
      orderEvents: swap.orderEvents,
      clock,
      logger: silentLogger(),
    });
    const catchUp = () => indexUntilCaughtUp(indexer);
    const orders = new OrderRepository(database, swap.orderEvents, new OrderStats());
    const row = await placeOrder(chain, app, database);

    const firstTx = await fillOrder(chain, row);
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: firstTx });

    // Replace the fill's block with an empty one at the same height.
    await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    expect(await chain.publicClient.getTransactionReceipt({ hash: firstTx }).catch(() => null)).toBeNull();
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({
      status: "open",
      txHash: null,
      settledAmounts: [],
    });

    const secondTx = await fillOrder(chain, row);
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: secondTx });

    const history = await orders.history(row.orderId);
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "open"],
      ["open", "filled"],
      ["filled", "open"],
      ["open", "filled"],
    ]);
    expect(history[2]?.reason).toMatch(/^reorg: block \d+ left the chain/);
    expect(history[1]?.txHash).toBe(firstTx);
    expect(history[3]?.txHash).toBe(secondTx);
  });

  it("rewinds when the chain is shorter than what it indexed, and indexes the chain that follows", async () => {
    const { database, app } = swap;
    // The previous test's chain was reverted: its indexed blocks are not this chain's.
    await database.query("truncate indexed_blocks, reactor_fills, nonce_invalidations");
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    const indexer = await indexerFromHead();
    const orders = new OrderRepository(database, swap.orderEvents, new OrderStats());
    const row = await placeOrder(chain, app, database);
    const beforeFill = await chain.snapshot();

    const firstTx = await fillOrder(chain, row);
    await chain.mine(3);
    await indexUntilCaughtUp(indexer);
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: firstTx });

    // The chain loses its last blocks, the fill's among them: its head is now below the last indexed block.
    await chain.revert(beforeFill);
    const head = await chain.publicClient.getBlockNumber();
    const rewound = await indexer.step();
    expect(rewound.rewoundTo).toBeLessThanOrEqual(head);
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "open", txHash: null });

    const secondTx = await fillOrder(chain, row);
    await indexUntilCaughtUp(indexer);
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: secondTx });
    expect((await orders.history(row.orderId)).map((h) => h.toStatus)).toEqual([
      "open",
      "filled",
      "open",
      "filled",
    ]);
  });
});

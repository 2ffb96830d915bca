// The order stream and the chain (this file's own anvil, confirmation depth 0, finality depth 2): a wallet's stream
// by order id sees the fill (with its block, not final), the reorg that removes it (`order` back to open), the fill
// landing again, and its finalization (`finalized: true`, not a status change), then `end`; reconnecting after
// that answers 204. GET /orders shows the same fields.
import { describe, expect, it } from "vitest";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
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
import { openSse, type SseEvent } from "../support/sse.ts";

const chain = useTestChain();

interface Record {
  orderId: string;
  orderStatus: string;
  txHash: string | null;
  fillBlockNumber: number | null;
  finalized: boolean;
}

describe.each(databaseKinds)("order stream and the chain (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock, { streams: true });

  it("streams the fill, the reorg that removes it, the fill again and its finalization, then ends", async () => {
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    const indexer = new ReactorIndexer({
      orderObserver: new OrderStats(),
      database: swap.database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      finalityDepth: 2,
      startBlock: (await chain.publicClient.getBlockNumber()) + 1n,
      orderEvents: swap.sluice.parts.orderEvents,
      clock,
      logger: silentLogger(),
    });
    const catchUp = () => indexUntilCaughtUp(indexer);
    const row = await placeOrder(chain, swap.app, swap.database);
    const stream = await openSse(`${swap.streamUrl}?orderId=${row.orderId}`);
    const records = (events: SseEvent[]) =>
      events.filter((e) => e.event === "order").map((e) => JSON.parse(e.data) as Record);
    try {
      const [snapshot] = await stream.until((events) => events.length === 1);
      expect(JSON.parse(snapshot!.data)).toMatchObject({
        orderStatus: "open",
        fillBlockNumber: null,
        finalized: false,
      });

      const firstTx = await fillOrder(chain, row);
      const firstBlock = Number(
        (await chain.publicClient.getTransactionReceipt({ hash: firstTx })).blockNumber,
      );
      await catchUp();
      await stream.until((events) => records(events).length === 1);

      // Replace the fill's block with an empty one: the order goes back to open.
      await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
      await catchUp();
      await stream.until((events) => records(events).length === 2);

      const secondTx = await fillOrder(chain, row);
      const secondBlock = Number(
        (await chain.publicClient.getTransactionReceipt({ hash: secondTx })).blockNumber,
      );
      await catchUp();
      await stream.until((events) => records(events).length === 3);
      expect(records(stream.events).at(-1)).toMatchObject({ finalized: false });

      // Two blocks later the fill is final: one more `order` event (same status), then `end`.
      await chain.mine(2);
      await catchUp();
      const events = await stream.until((all) => all.some((e) => e.event === "end"));
      await stream.ended;
      expect(records(events).map((r) => [r.orderStatus, r.txHash, r.fillBlockNumber, r.finalized])).toEqual([
        ["filled", firstTx, firstBlock, false],
        ["open", null, null, false],
        ["filled", secondTx, secondBlock, false],
        ["filled", secondTx, secondBlock, true],
      ]);
      const end = events.at(-1)!;
      expect(end).toMatchObject({ event: "end", id: events.at(-2)!.id });

      // Reconnecting after the end: nothing more will come.
      const again = await openSse(`${swap.streamUrl}?orderId=${row.orderId}`, { "last-event-id": end.id! });
      expect(again.status).toBe(204);
      // A fresh stream gets the final snapshot and ends at once.
      const fresh = await openSse(`${swap.streamUrl}?orderId=${row.orderId}`);
      const freshEvents = await fresh.until((all) => all.some((e) => e.event === "end"));
      expect(freshEvents.map((e) => e.event)).toEqual(["snapshot", "end"]);

      const listed = await swap.app.inject({ url: `/api/v1/orders?orderId=${row.orderId}` });
      expect(listed.json().orders[0]).toMatchObject({
        orderStatus: "filled",
        fillBlockNumber: secondBlock,
        finalized: true,
      });
    } finally {
      stream.close();
    }
  });
});

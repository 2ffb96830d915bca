import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { ensureChainIdentity } from "../../src/indexer/chain-identity.ts";
import { silentLogger } from "../../src/logger.ts";
import { queryOf, readChangesAfter, readLogBounds } from "../../src/orders/event-log.ts";
import { type OrderEvent, OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";

const GENESIS_A = `0x${"a".repeat(64)}` as const;
const GENESIS_B = `0x${"b".repeat(64)}` as const;

describe.each(databaseKinds)("chain identity (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  const storeQuoteRequest = () =>
    database.query(
      `insert into quote_requests (request_id, swapper, token_in, token_out, amount, outputs, routing_preference, created_at)
       values ($1, $2, $2, $2, 1, '[]', 'BEST_PRICE', now())`,
      [randomUUID(), `0x${"1".repeat(40)}`],
    );
  const countQuoteRequests = async () =>
    Number((await database.query<{ n: string }>("select count(*) as n from quote_requests"))[0]?.n);
  const storeOrder = async (orderEvents: OrderEvents) => {
    const at = new Date();
    const repository = new OrderRepository(database, orderEvents, new OrderStats());
    const { order } = await repository.createOnce(newOrder("ext_chain", at));
    await repository.recordAttempt(order.orderId, randomUUID(), at);
  };
  const countOrderRows = async () =>
    (
      await database.query<{ n: string }>(
        `select (select count(*) from orders) + (select count(*) from order_status_history)
           + (select count(*) from order_attempts) as n`,
      )
    ).map((row) => Number(row.n))[0];

  it("keeps the swap state while the chain is the same, and resets it when the chain changes", async () => {
    const logger = silentLogger();
    const orderEvents = new OrderEvents();
    const published: OrderEvent[] = [];
    orderEvents.subscribe((event) => published.push(event));
    const ensure = (chainId: number, blockHash: `0x${string}`) =>
      ensureChainIdentity(database, { chainId, blockHash }, logger, orderEvents);
    expect(await ensure(31337, GENESIS_A)).toBe(false);
    await storeQuoteRequest();
    await storeOrder(new OrderEvents());
    await database.query("insert into dataset_generations (dataset, generation) values ('points', 7)");
    expect(await ensure(31337, GENESIS_A)).toBe(false);
    expect(await countQuoteRequests()).toBe(1);
    // The order, its created row in the history, and one attempt.
    expect(await countOrderRows()).toBe(3);
    expect(published).toEqual([]);

    expect(await ensure(31337, GENESIS_B)).toBe(true);
    expect(await countQuoteRequests()).toBe(0);
    expect(await countOrderRows()).toBe(0);
    // This process's order readers are told the orders are gone.
    expect(published).toEqual([{ kind: "reset" }]);
    // Partner data is not chain state.
    expect(
      await database.query("select generation from dataset_generations where dataset = 'points'"),
    ).toEqual([{ generation: "7" }]);
    await storeQuoteRequest();
    expect(await ensure(1, GENESIS_B)).toBe(true);
    expect(await countQuoteRequests()).toBe(0);
  });

  it("a reset before any order change was logged keeps the first id to come readable", async () => {
    // A fresh database: the event id sequence has handed out nothing yet.
    const fresh = await createTestDatabase(kind);
    try {
      const orderEvents = new OrderEvents();
      const ensure = (blockHash: `0x${string}`) =>
        ensureChainIdentity(fresh, { chainId: 31337, blockHash }, silentLogger(), orderEvents);
      await ensure(GENESIS_A);
      expect(await ensure(GENESIS_B)).toBe(true);
      // A stream opened now starts after the log's newest id; the first order's change must come after it.
      const { lastId } = await readLogBounds(queryOf(fresh));
      const repository = new OrderRepository(fresh, orderEvents, new OrderStats());
      const { order } = await repository.createOnce(newOrder("ext_chain", new Date()));
      const changes = await readChangesAfter(queryOf(fresh), lastId, 10);
      expect(changes.map((change) => change.row.order_id)).toEqual([order.orderId]);
    } finally {
      await fresh.close();
    }
  });
});

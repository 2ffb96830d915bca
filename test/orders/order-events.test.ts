// Order events: each created order and each status change is published once its transaction committed, carrying
// the order id, the change, and the id of the order_status_history row it wrote (increasing, so a stream can resume
// from it); an order not created (its quote already has one) publishes nothing; an unsubscribed listener hears nothing.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { type OrderEvent, OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";

describe.each(databaseKinds)("order events (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  const historyIds = async (orderId: string) =>
    (
      await database.query<{ id: string }>(
        "select id::text as id from order_status_history where order_id = $1 order by id",
        [orderId],
      )
    ).map((row) => BigInt(row.id));

  it("publishes each creation and status change with its history row's id", async () => {
    const orderEvents = new OrderEvents();
    const heard: OrderEvent[] = [];
    const unsubscribe = orderEvents.subscribe((event) => heard.push(event));
    const repository = new OrderRepository(database, orderEvents, new OrderStats());
    const at = new Date(Date.UTC(2026, 5, 1));

    const { order } = await repository.createOnce(newOrder("ext_events", at));
    // A second post of the same quote finds the order: nothing new happened.
    const again = await repository.createOnce({ ...newOrder("ext_events", at), quoteId: order.quoteId });
    expect(again).toMatchObject({ created: false, order: { orderId: order.orderId } });
    const change = { orderId: order.orderId, from: "open", to: "filled", reason: "test", at } as const;
    expect(await changeOrderStatus(database, orderEvents, change)).toBe(true);
    // Already filled: the compare-and-set does not apply, and nothing is published.
    expect(await changeOrderStatus(database, orderEvents, change)).toBe(false);

    const [created, filled] = await historyIds(order.orderId);
    expect(created! < filled!).toBe(true);
    expect(heard).toEqual([
      {
        kind: "status",
        eventId: created,
        orderId: order.orderId,
        solverId: order.solverId,
        from: null,
        to: "open",
      },
      {
        kind: "status",
        eventId: filled,
        orderId: order.orderId,
        solverId: order.solverId,
        from: "open",
        to: "filled",
      },
    ]);

    unsubscribe();
    await repository.createOnce(newOrder("ext_events", at));
    expect(heard).toHaveLength(2);
  });

  it("logs a change at its commit, not at its transaction's start", async () => {
    const { order } = await new OrderRepository(database, new OrderEvents(), new OrderStats()).createOnce(
      newOrder("ext_events", new Date()),
    );
    // A transaction that changes the order, then works 300 ms before it commits (the indexer applying a block).
    const started = await database.db.transaction(async (tx) => {
      const rows = (await tx.execute(sql`select extract(epoch from now()) * 1000 as ms`)) as unknown as {
        rows: Array<{ ms: string }>;
      };
      await tx.execute(
        sql`update orders set updated_at = clock_timestamp() where order_id = ${order.orderId}`,
      );
      await tx.execute(sql`select pg_sleep(0.3)`);
      return Number(rows.rows[0]!.ms);
    });
    const [logged] = await database.query<{ ms: string }>(
      `select extract(epoch from recorded_at) * 1000 as ms from order_events
        where order_id = $1 order by id desc limit 1`,
      [order.orderId],
    );
    expect(Number(logged!.ms) - started).toBeGreaterThanOrEqual(300);
  });
});

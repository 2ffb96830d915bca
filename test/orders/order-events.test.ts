// Order events: each created order and each status change is published once its transaction committed, carrying
// the order id, the change, and the id of the order_status_history row it wrote (increasing, so a stream can resume
// from it); an order not created (its quote already has one) publishes nothing; an unsubscribed listener hears nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { type OrderEvent, OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
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
    const repository = new OrderRepository(database, orderEvents);
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
});

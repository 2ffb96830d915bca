// GET /orders on stored orders (no chain needed): short lists as one body, long lists streamed whole, records that
// match the schema, and a solver's kept open orders that show this process's writes at once and another replica's
// within OPEN_ORDERS_MAX_AGE_MS.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { PAGE_SIZE } from "../../src/orders/list.ts";
import { OPEN_ORDERS_MAX_AGE_MS } from "../../src/orders/open-orders-cache.ts";
import type { OrderEvents } from "../../src/orders/order-events.ts";
import { type NewOrder, OrderRepository } from "../../src/orders/repository.ts";
import { OrderRecordSchema, OrdersResponseSchema } from "../../src/orders/schemas.ts";
import { OrderSettlement } from "../../src/orders/settlement.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { hex, newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

describe.each(databaseKinds)("GET /orders (%s)", (kind) => {
  let database: Database;
  let app: App;
  let repository: OrderRepository;
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  // This process's order events: the server's cache and the test's writes share them.
  let orderEvents: OrderEvents;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const server = await createTestServer(database, { clock, deployment: unstartedDeployment() });
    app = server.app;
    orderEvents = server.sluice.parts.orderEvents;
    repository = new OrderRepository(database, orderEvents, new OrderStats());
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function list(query: string) {
    const response = await app.inject({ url: `/api/v1/orders?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = OrdersResponseSchema.parse(response.json());
    expect(body.requestId).toBe(response.headers["x-request-id"]);
    for (const order of body.orders) OrderRecordSchema.strict().parse(order);
    return { body, response };
  }

  async function create(solverId: string, overrides: Partial<NewOrder> = {}) {
    clock.advance(1000);
    const { order } = await repository.createOnce(newOrder(solverId, clock.now(), overrides));
    return order;
  }

  it("answers a solver's open orders newest first with its execution fields, in one body", async () => {
    const first = await create("ext_one");
    const second = await create("ext_one");
    await create("ext_other");
    const { body, response } = await list("solverId=ext_one&orderStatus=open");
    // A short list is one body with its length, not a chunked stream.
    expect(response.headers["content-length"]).toBe(String(response.rawPayload.length));
    expect(body.orders.map((o) => o.orderId)).toEqual([second.orderId, first.orderId]);
    expect(body.cursor).toBeNull();
    expect(body.orders[1]).toEqual({
      type: "Priority",
      orderId: first.orderId,
      orderHash: first.orderHash,
      orderStatus: "open",
      quoteId: first.quoteId,
      swapper: first.swapper,
      txHash: null,
      nonce: first.nonce,
      input: { token: first.tokenIn, amount: first.amountIn },
      // The committed outputs without their portions.
      outputs: first.outputs.map(({ token, recipient, amount }) => ({ token, recipient, amount })),
      settledAmounts: [],
      fillBlockNumber: null,
      finalized: false,
      quoteRequestId: first.quoteRequestId,
      orderRequestId: first.requestId,
      quotedAmountOut: "99000000",
      committedAmountOut: "99250000",
      settledAmountOut: null,
      // 250,000 over 99,000,000 is 25.25 bps: floored.
      priceImprovement: { amount: "250000", bps: 25 },
      createdAt: first.createdAt.toISOString(),
      updatedAt: first.updatedAt.toISOString(),
      encodedOrder: first.encodedOrder,
      protocolSignature: first.protocolSignature,
      deadline: first.deadline,
      filler: first.filler,
    });
    const ascending = await list("solverId=ext_one&orderStatus=open&sort=asc");
    expect(ascending.body.orders.map((o) => o.orderId)).toEqual([first.orderId, second.orderId]);
    // Anyone else's view of the same orders has no execution fields.
    const bySwapper = await list(`swapper=${first.swapper}&orderStatus=open`);
    expect(bySwapper.body.orders.length).toBeGreaterThanOrEqual(3);
    for (const order of bySwapper.body.orders) expect(order.encodedOrder).toBeUndefined();
  });

  it("answers an Executor's open orders (filler=, vault-solver's poll) with the execution fields", async () => {
    const executor = hex(40, 0xe1ec);
    const other = hex(40, 0xe2ec);
    const first = await create("ext_poll_a", { filler: executor });
    const second = await create("ext_poll_b", { filler: executor });
    const elsewhere = await create("ext_poll_a", { filler: other });
    // Any case of the address asks for the same Executor (the cache must not split or mix its answers).
    for (const asked of [executor, executor.toUpperCase().replace("0X", "0x")]) {
      const { body } = await list(`filler=${asked}&orderStatus=open`);
      expect(body.orders.map((o) => o.orderId)).toEqual([second.orderId, first.orderId]);
      for (const [order, created] of [
        [body.orders[0], second],
        [body.orders[1], first],
      ] as const) {
        expect(order).toMatchObject({
          encodedOrder: created.encodedOrder,
          protocolSignature: created.protocolSignature,
          deadline: created.deadline,
          filler: executor,
        });
      }
    }
    // The other Executor's poll, and the solverId poll, are kept apart from it.
    const byOther = await list(`filler=${other}&orderStatus=open`);
    expect(byOther.body.orders.map((o) => [o.orderId, o.filler])).toEqual([[elsewhere.orderId, other]]);
    const bySolver = await list("solverId=ext_poll_a&orderStatus=open");
    expect(bySolver.body.orders.map((o) => o.orderId)).toEqual([elsewhere.orderId, first.orderId]);
    const both = await list(`solverId=ext_poll_a&filler=${executor}&orderStatus=open`);
    expect(both.body.orders.map((o) => [o.orderId, o.encodedOrder])).toEqual([
      [first.orderId, first.encodedOrder],
    ]);
    // Not open: no execution fields, also by filler; a change in this process shows at once.
    await changeOrderStatus(database, orderEvents, {
      from: "open",
      to: "filled",
      reason: "test",
      at: clock.now(),
      orderId: second.orderId,
      txHash: hex(64, 8),
    });
    expect((await list(`filler=${executor}&orderStatus=open`)).body.orders.map((o) => o.orderId)).toEqual([
      first.orderId,
    ]);
    const filled = await list(`filler=${executor}&orderStatus=filled`);
    expect(filled.body.orders.map((o) => [o.orderId, o.encodedOrder, o.filler])).toEqual([
      [second.orderId, undefined, undefined],
    ]);
  });

  it("shows an order created in this process at once", async () => {
    const before = await list("solverId=ext_new&orderStatus=open");
    expect(before.body.orders).toEqual([]);
    const order = await create("ext_new");
    const after = await list("solverId=ext_new&orderStatus=open");
    expect(after.body.orders.map((o) => o.orderId)).toEqual([order.orderId]);
  });

  it("shows a status change made in this process at once, also one committed inside a transaction", async () => {
    const filled = await create("ext_change");
    const expired = await create("ext_change");
    expect((await list("solverId=ext_change&orderStatus=open")).body.orders).toHaveLength(2);
    const change = { from: "open", reason: "test", at: clock.now() } as const;
    await changeOrderStatus(database, orderEvents, {
      ...change,
      orderId: filled.orderId,
      to: "filled",
      txHash: hex(64, 7),
    });
    expect((await list("solverId=ext_change&orderStatus=open")).body.orders.map((o) => o.orderId)).toEqual([
      expired.orderId,
    ]);
    // The indexer's way: changes inside its block's transaction, published once that has committed. Until then
    // the kept answer stands.
    const settlement = new OrderSettlement(database, new OrderStats());
    const applied = await database.db.transaction((tx) =>
      settlement.change(tx, { ...change, orderId: expired.orderId, to: "expired" }),
    );
    const event = applied?.event;
    expect(event).toMatchObject({ kind: "status", orderId: expired.orderId, from: "open", to: "expired" });
    expect((await list("solverId=ext_change&orderStatus=open")).body.orders).toHaveLength(1);
    orderEvents.publish([event!]);
    expect((await list("solverId=ext_change&orderStatus=open")).body.orders).toEqual([]);
    const { body } = await list("solverId=ext_change&orderStatus=expired");
    expect(body.orders.map((o) => [o.orderId, o.orderStatus, o.encodedOrder])).toEqual([
      [expired.orderId, "expired", undefined],
    ]);
  });

  it(`shows another replica's writes within ${OPEN_ORDERS_MAX_AGE_MS} ms`, async () => {
    const order = await create("ext_replica");
    expect((await list("solverId=ext_replica&orderStatus=open")).body.orders).toHaveLength(1);
    // Written as another replica would: straight to the shared database, nothing signalled in this process.
    await database.query("update orders set status = 'filled' where order_id = $1", [order.orderId]);
    clock.advance(OPEN_ORDERS_MAX_AGE_MS - 1);
    expect((await list("solverId=ext_replica&orderStatus=open")).body.orders).toHaveLength(1);
    clock.advance(1);
    expect((await list("solverId=ext_replica&orderStatus=open")).body.orders).toEqual([]);
  });

  // A second instance with its own connection pool: nothing this process's writers signal reaches it.
  it.runIf(kind === "postgres")(
    `shows another instance's new order and status change within ${OPEN_ORDERS_MAX_AGE_MS} ms`,
    async () => {
      const [current] = await database.query<{ name: string }>("select current_database() as name");
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${current!.name}`;
      const otherDatabase = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
      // Another process: its own order events, which nothing here publishes to.
      const { app: other } = await createTestServer(otherDatabase, {
        clock,
        deployment: unstartedDeployment(),
      });
      try {
        const poll = async () => {
          const response = await other.inject({
            url: "/api/v1/orders?solverId=ext_elsewhere&orderStatus=open",
          });
          return OrdersResponseSchema.parse(response.json()).orders.map((o) => o.orderId);
        };
        expect(await poll()).toEqual([]);
        // Created through this instance at the same clock time: the other one's kept answer is still young.
        const { order } = await repository.createOnce(newOrder("ext_elsewhere", clock.now()));
        expect((await list("solverId=ext_elsewhere&orderStatus=open")).body.orders).toHaveLength(1);
        expect(await poll()).toEqual([]);
        clock.advance(OPEN_ORDERS_MAX_AGE_MS);
        expect(await poll()).toEqual([order.orderId]);
        await changeOrderStatus(database, orderEvents, {
          orderId: order.orderId,
          from: "open",
          to: "cancelled",
          reason: "test",
          at: clock.now(),
        });
        expect((await list("solverId=ext_elsewhere&orderStatus=open")).body.orders).toEqual([]);
        clock.advance(OPEN_ORDERS_MAX_AGE_MS - 1);
        expect(await poll()).toEqual([order.orderId]);
        clock.advance(1);
        expect(await poll()).toEqual([]);
      } finally {
        await other.close();
        await otherDatabase.close();
      }
    },
  );

  it("streams a list longer than a page whole, in order, and pages it with limit and cursor", async () => {
    const total = PAGE_SIZE + 250;
    await database.query(
      `insert into orders (order_id, quote_id, request_id, quote_request_id, token_out, quoted_amount_out,
         committed_amount_out, order_hash, status, swapper, filler, solver_id, token_in,
         amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order,
         created_at, updated_at)
       select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '0x' || repeat('2', 40), 1, 1,
         '0x' || lpad(to_hex(1000000 + i), 64, '0'),
         'open', '0x' || lpad('b0b', 40, '0'), '0x' || lpad('f00', 40, '0'), 'ext_many', '0x' || repeat('1', 40),
         1, i, 1900000000, '[]', '[]', '0x', '0xab', '0xcd',
         timestamptz '2026-01-01' + (i / 4) * interval '1 millisecond' + (i % 4) * interval '1 microsecond',
         timestamptz '2026-01-01'
       from generate_series(1, ${total}) as i`,
    );
    const expected = (
      await database.query<{ order_id: string }>(
        "select order_id from orders where solver_id = 'ext_many' order by created_at desc, order_id desc",
      )
    ).map((row) => row.order_id);
    expect(expected).toHaveLength(total);

    // The solver's own poll is longer than a page: streamed, not kept.
    const { body, response } = await list("solverId=ext_many&orderStatus=open");
    expect(response.headers["transfer-encoding"]).toBe("chunked");
    expect(body.orders.map((o) => o.orderId)).toEqual(expected);
    expect(body.orders.every((o) => o.encodedOrder === "0xcd")).toBe(true);

    const swapper = `0x${"b0b".padStart(40, "0")}`;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { orders: Array<{ orderId: string }>; cursor: string | null } } = await list(
        `swapper=${swapper}&limit=400${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.orders.map((o) => o.orderId));
      cursor = page.body.cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  const cursorOf = (value: unknown) => `oc_${Buffer.from(JSON.stringify(value)).toString("base64url")}`;
  it.each([
    [
      "a cursor whose id is 36 dashes",
      `cursor=${cursorOf({ k: "2026-01-01T00:00:00.000000Z", id: "-".repeat(36) })}`,
    ],
    ["a cursor whose sort value is 1", `cursor=${cursorOf({ k: "1", id: randomUUID() })}`],
    [
      "a cursor on a day February does not have",
      `cursor=${cursorOf({ k: "2026-02-30T00:00:00.000000Z", id: randomUUID() })}`,
    ],
    ["a cursor in year 0", `cursor=${cursorOf({ k: "0000-01-01T00:00:00.000000Z", id: randomUUID() })}`],
    ["a cursor that is not an object", `cursor=${cursorOf(["2026-01-01T00:00:00.000000Z", randomUUID()])}`],
    [
      "a well-formed cursor without its oc_ prefix",
      `cursor=${cursorOf({ k: "2026-01-01T00:00:00.000000Z", id: randomUUID() }).slice("oc_".length)}`,
    ],
    ["a NUL byte in solverId (the poll)", "solverId=ext_alpha%00"],
    ["a NUL byte in solverId (a filtered list)", "solverId=%00"],
    ["another control character in solverId", "solverId=ext%1Balpha"],
  ])("answers 400 VALIDATION_FAILED, not 500, to %s", async (_label, parameter) => {
    const response = await app.inject({ url: `/api/v1/orders?orderStatus=open&limit=5&${parameter}` });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe("VALIDATION_FAILED");
    const poll = await app.inject({ url: `/api/v1/orders?orderStatus=open&${parameter}` });
    expect(poll.statusCode, poll.body).toBe(400);
  });
});

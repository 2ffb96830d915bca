// GET /orders/stream on one replica: the 400s, the snapshot (exactly GET /orders' records, carrying the log's newest
// id), live `order` events for each change (a swapper's new orders too), a resume in the middle of a burst that
// loses and repeats nothing, a resume from an id the log no longer holds (resync, then the snapshot again), the
// replica's stream limits, and a stream that ends at shutdown instead of holding it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database } from "../../src/db/client.ts";
import { pruneChanges } from "../../src/orders/event-log.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import type { OrderStatus } from "../../src/orders/tables.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { hex, newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";
import { listenForOrderStreams, openSse, type SseEvent } from "../support/sse.ts";

const at = new Date(Date.UTC(2026, 5, 1));
const ofKind = (kind: string) => (events: SseEvent[]) => events.filter((e) => e.event === kind);

describe.each(databaseKinds)("order stream (%s)", (kind) => {
  let database: Database;
  let sluice: Sluice;
  let base: string;
  let repository: OrderRepository;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ sluice } = await createTestServer(database, {
      deployment: unstartedDeployment(),
      env: { STREAM_MAX_PER_IP: "8" },
    }));
    base = await listenForOrderStreams(sluice.parts.orderFeed, sluice.http);
    repository = new OrderRepository(database, sluice.parts.orderEvents, new OrderStats());
  });
  afterAll(async () => {
    await sluice?.stop();
    await database?.close();
  });

  const swapperSeq = { n: 0x5000 };
  const freshSwapper = () => hex(40, swapperSeq.n++);
  const create = async (swapper: string) =>
    (await repository.createOnce(newOrder("ext_stream", at, { swapper }))).order;
  const change = (orderId: string, from: OrderStatus, to: OrderStatus) =>
    changeOrderStatus(database, sluice.parts.orderEvents, { orderId, from, to, reason: "test", at });
  const logIds = async (swapper: string) =>
    (
      await database.query<{ id: string }>(
        "select e.id::text as id from order_events e join orders o using (order_id) where o.swapper = $1 order by e.id",
        [swapper],
      )
    ).map((row) => row.id);

  it("answers 400 without an order filter, and for a Last-Event-ID it never sent", async () => {
    const none = await fetch(base);
    expect(none.status).toBe(400);
    expect(await errorOf(none)).toMatchObject({ code: "MISSING_FILTER", status: 400 });
    const badHeader = await fetch(`${base}?swapper=${freshSwapper()}`, {
      headers: { "last-event-id": "x1" },
    });
    expect(badHeader.status).toBe(400);
    expect((await errorOf(badHeader)).code).toBe("VALIDATION_FAILED");
    const badQuery = await fetch(`${base}?swapper=${freshSwapper()}&lastEventId=-3`);
    expect(badQuery.status).toBe(400);
    expect((await errorOf(badQuery)).code).toBe("VALIDATION_FAILED");
    const badSwapper = await fetch(`${base}?swapper=0x12`);
    expect(badSwapper.status).toBe(400);
  });

  it("is in the OpenAPI document as text/event-stream, its errors as JSON", async () => {
    const document = (await sluice.http.inject({ url: "/api/v1/openapi.json" })).json();
    const { responses } = document.paths["/orders/stream"].get;
    expect(Object.keys(responses["200"].content)).toEqual(["text/event-stream"]);
    expect(Object.keys(responses["400"].content)).toEqual(["application/json"]);
    expect(Object.keys(responses).sort()).toEqual(["200", "204", "400", "401", "403", "429", "500", "503"]);
  });

  it("sends the snapshot (GET /orders' records, the log's newest id), then each change and new order", async () => {
    const swapper = freshSwapper();
    const first = await create(swapper);
    const second = await create(swapper);
    await change(first.orderId, "open", "expired");
    const listed = await sluice.http.inject({ url: `/api/v1/orders?swapper=${swapper}` });
    const [newest] = await database.query<{ last_id: string }>(
      "select max(id)::text as last_id from order_events",
    );

    const stream = await openSse(`${base}?swapper=${swapper}`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
      const snapshot = ofKind("snapshot")(await stream.until((events) => events.length >= 2));
      expect(snapshot.map((e) => JSON.parse(e.data))).toEqual(listed.json().orders);
      expect(snapshot.map((e) => e.id)).toEqual([newest!.last_id, newest!.last_id]);
      expect(stream.retry).toBeGreaterThanOrEqual(2000);

      await change(second.orderId, "open", "filled");
      const third = await create(swapper);
      const events = await stream.until((all) => ofKind("order")(all).length >= 2);
      const orders = ofKind("order")(events);
      expect(orders.map((e) => [JSON.parse(e.data).orderId, JSON.parse(e.data).orderStatus])).toEqual([
        [second.orderId, "filled"],
        [third.orderId, "open"],
      ]);
      expect(orders.map((e) => e.id)).toEqual((await logIds(swapper)).slice(-2));
      // Each change's record is the GET /orders record after it.
      const now = await sluice.http.inject({ url: `/api/v1/orders?orderId=${third.orderId}` });
      expect(JSON.parse(orders[1]!.data)).toEqual(now.json().orders[0]);
    } finally {
      stream.close();
    }
  });

  it("resumes in the middle of a burst with Last-Event-ID: every change once, none lost or repeated", async () => {
    const swapper = freshSwapper();
    const ids = await Promise.all(Array.from({ length: 6 }, () => create(swapper).then((o) => o.orderId)));
    const first = await openSse(`${base}?swapper=${swapper}`);
    await first.until((events) => ofKind("snapshot")(events).length === 6);
    // A burst of 18 changes (each order open → insufficient-funds → open → filled); the client drops after its
    // fifth event while the first half is still being written, and the second half is written while it is away.
    let reconnecting: () => void = () => {};
    const away = new Promise<void>((resolve) => {
      reconnecting = resolve;
    });
    const steps: Array<[OrderStatus, OrderStatus]> = [
      ["open", "insufficient-funds"],
      ["insufficient-funds", "open"],
      ["open", "filled"],
    ];
    const burst = (async () => {
      let written = 0;
      for (const [from, to] of steps)
        for (const orderId of ids) {
          if (written++ === 9) await away;
          await change(orderId, from, to);
        }
    })();
    await first.until((events) => ofKind("order")(events).length >= 5);
    first.close();
    await first.ended;
    const before = ofKind("order")(first.events);
    reconnecting();
    await burst;
    const changes = (await logIds(swapper)).slice(6);
    expect(changes).toHaveLength(18);

    const second = await openSse(`${base}?swapper=${swapper}`, { "last-event-id": before.at(-1)!.id! });
    try {
      const after = ofKind("order")(
        await second.until((events) => ofKind("order")(events).at(-1)?.id === changes.at(-1)),
      );
      expect(ofKind("snapshot")(second.events)).toEqual([]);
      expect(after.length).toBeGreaterThanOrEqual(9);
      expect([...before, ...after].map((e) => e.id)).toEqual(changes);
      // The last record of each order is its final state.
      expect(after.slice(-6).map((e) => JSON.parse(e.data).orderStatus)).toEqual(Array(6).fill("filled"));
    } finally {
      second.close();
    }
    // And the query form resumes the same way.
    const third = await openSse(`${base}?swapper=${swapper}&lastEventId=${changes.at(-3)}`);
    try {
      const again = await third.until((events) => ofKind("order")(events).length === 2);
      expect(again.map((e) => e.id)).toEqual(changes.slice(-2));
    } finally {
      third.close();
    }
  });

  it("sends resync and the snapshot again for an id the log no longer holds", async () => {
    const swapper = freshSwapper();
    const order = await create(swapper);
    const [oldId] = await logIds(swapper);
    await change(order.orderId, "open", "cancelled");
    // Everything recorded so far falls out of the retention window.
    await pruneChanges(database, new Date(Date.now() + 60_000));
    const stream = await openSse(`${base}?swapper=${swapper}`, { "last-event-id": oldId! });
    try {
      const events = await stream.until((all) => all.length >= 2);
      expect(events[0]).toMatchObject({ event: "resync" });
      expect(JSON.parse(events[0]!.data).lastEventId).toBe(oldId);
      expect(events[1]).toMatchObject({ event: "snapshot" });
      expect(JSON.parse(events[1]!.data)).toMatchObject({ orderId: order.orderId, orderStatus: "cancelled" });
    } finally {
      stream.close();
    }
  });

  it("caps streams per client address (429) and per replica (503), and frees a slot when a client goes", async () => {
    const held = [];
    for (let i = 0; i < 8; i++) held.push(await openSse(`${base}?orderId=${randomUUID()}`));
    expect(held.map((s) => s.status)).toEqual(Array(8).fill(200));
    const refused = await fetch(`${base}?orderId=${randomUUID()}`);
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe("TOO_MANY_STREAMS");
    held.pop()!.close();
    await until(() => sluice.parts.streamConnections.open === 7);
    const admitted = await openSse(`${base}?orderId=${randomUUID()}`);
    expect(admitted.status).toBe(200);
    held.push(admitted);
    for (const stream of held) stream.close();
    await until(() => sluice.parts.streamConnections.open === 0);
  });

  it("ends its streams when the server stops, without waiting for the shutdown timeout", async () => {
    const stream = await openSse(`${base}?swapper=${freshSwapper()}`);
    expect(stream.status).toBe(200);
    const started = Date.now();
    // The listeners' stop, as Sluice's stop() runs it (this server listens through the test's own listen).
    await sluice.steps.find((step) => step.name === "HTTP listeners")!.stop();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("order stream capacity", () => {
  it("answers 503 beyond STREAM_MAX_CONNECTIONS", async () => {
    const database = await createTestDatabase("pglite");
    const { sluice } = await createTestServer(database, {
      deployment: unstartedDeployment(),
      env: { STREAM_MAX_CONNECTIONS: "1" },
    });
    try {
      const url = `${await listenForOrderStreams(sluice.parts.orderFeed, sluice.http)}?orderId=${randomUUID()}`;
      const first = await openSse(url);
      expect(first.status).toBe(200);
      const second = await fetch(url);
      expect(second.status).toBe(503);
      expect((await errorOf(second)).code).toBe("STREAMS_AT_CAPACITY");
      first.close();
    } finally {
      await sluice.stop();
      await database.close();
    }
  });
});

async function errorOf(response: Response): Promise<{ code: string; status: number }> {
  return ((await response.json()) as { error: { code: string; status: number } }).error;
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 1000) throw new Error("condition not met within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

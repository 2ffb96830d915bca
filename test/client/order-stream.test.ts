// The client's order stream (@sluice/client streamOrders): against a server, a stream cut after every second change
// resumes with Last-Event-ID and delivers each change of a burst exactly once, in log order; against scripted
// answers, the SSE reader's corners (CRLF, split chunks, multi-line data, comments), `end` and 204 that stop it,
// `resync` followed by the snapshot again, and OrderStreamUnavailableError when the answer is not a stream or the
// stream keeps dropping without an event.

import {
  createSluiceClient,
  type OrderStreamEvent,
  OrderStreamUnavailableError,
  readServerSentEvents,
} from "@sluice/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database } from "../../src/db/client.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import type { OrderStatus } from "../../src/orders/tables.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { hex, newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

const at = new Date(Date.UTC(2026, 5, 1));

describe.each(databaseKinds)("streamOrders against a server (%s)", (kind) => {
  let database: Database;
  let sluice: Sluice;
  let apiUrl: string;
  let repository: OrderRepository;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ sluice } = await createTestServer(database, { deployment: unstartedDeployment() }));
    await sluice.parts.orderFeed.start();
    await sluice.http.listen({ port: 0, host: "127.0.0.1" });
    const address = sluice.http.server.address();
    if (!address || typeof address === "string") throw new Error("not listening");
    apiUrl = `http://127.0.0.1:${address.port}/api/v1`;
    repository = new OrderRepository(database, sluice.parts.orderEvents, new OrderStats());
  });
  afterAll(async () => {
    await sluice?.stop();
    await database?.close();
  });

  it("resumes with Last-Event-ID after each drop in a burst: every change once, in log order", async () => {
    const swapper = hex(40, 0x7100);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await repository.createOnce(newOrder("ext_client", at, { swapper }))).order.orderId);
    const cut = cuttingFetch({ afterOrderEvents: 2 });
    const client = createSluiceClient({ apiUrl, fetch: cut.fetcher });
    const stop = new AbortController();
    const events: OrderStreamEvent[] = [];
    let snapshotTaken: () => void = () => {};
    const snapshotted = new Promise<void>((resolve) => {
      snapshotTaken = resolve;
    });
    const reading = (async () => {
      for await (const event of client.streamOrders({ swapper }, { signal: stop.signal })) {
        events.push(event);
        if (events.length === ids.length) snapshotTaken();
        if (events.filter((e) => e.type === "order").length === 12) return;
      }
    })();

    // A burst of 12 changes (each order open → insufficient-funds → open → filled) written while the client reads,
    // drops every second change and reconnects.
    const steps: Array<[OrderStatus, OrderStatus]> = [
      ["open", "insufficient-funds"],
      ["insufficient-funds", "open"],
      ["open", "filled"],
    ];
    await snapshotted;
    for (const [from, to] of steps)
      for (const orderId of ids)
        await changeOrderStatus(database, sluice.parts.orderEvents, {
          orderId,
          from,
          to,
          reason: "test",
          at,
        });
    await reading;
    stop.abort();

    const snapshots = events.filter((e) => e.type === "snapshot");
    expect(snapshots.map((e) => e.order.orderId).sort()).toEqual([...ids].sort());
    const changes = events.filter((e) => e.type === "order");
    const snapshotId = BigInt(snapshots[0]!.id);
    const logged = (
      await database.query<{ id: string }>(
        "select e.id::text as id from order_events e join orders o using (order_id) where o.swapper = $1 order by e.id",
        [swapper],
      )
    )
      .map((row) => row.id)
      .filter((id) => BigInt(id) > snapshotId);
    expect(changes.map((e) => e.id)).toEqual(logged);
    expect(changes.filter((e) => e.order.orderStatus === "filled").map((e) => e.order.orderId)).toEqual(ids);

    // It was cut and resumed, each time from the last change it had received.
    expect(cut.connections.length).toBeGreaterThanOrEqual(6);
    expect(cut.connections[0]).toEqual({ lastEventId: null });
    expect(cut.connections.slice(1).map((c) => c.lastEventId)).toEqual(
      changes
        .map((e) => e.id)
        .filter((_, i) => i % 2 === 1)
        .slice(0, cut.connections.length - 1),
    );
  });
});

describe("streamOrders against scripted answers", () => {
  it("reads CRLF, chunks split anywhere, multi-line data and comments as the standard does", async () => {
    const text =
      '\uFEFFretry: 40\r\n: hello\r\n\r\nevent: a\r\nid: 7\r\ndata: x\r\ndata: y\r\n\r\ndata: {"z":1}\n\n';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const retries: number[] = [];
    const events = [];
    for await (const event of readServerSentEvents(body, { onRetry: (ms) => retries.push(ms) }))
      events.push(event);
    expect(retries).toEqual([40]);
    expect(events).toEqual([
      { event: "a", id: "7", data: "x\ny" },
      { event: "message", id: "7", data: '{"z":1}' },
    ]);
  });

  it("follows a resync with the snapshot again, and stops on a 204", async () => {
    const order = { orderId: "o1", orderStatus: "open" };
    const answers = [
      sse(
        `retry: 10\n\nevent: resync\ndata: {"lastEventId":"3","oldestResumableId":"40"}\n\n` +
          `event: snapshot\nid: 50\ndata: ${JSON.stringify(order)}\n\n` +
          `event: order\nid: 51\ndata: ${JSON.stringify({ ...order, orderStatus: "filled" })}\n\n`,
      ),
      new Response(null, { status: 204 }),
    ];
    const sent: Array<string | null> = [];
    const client = createSluiceClient({
      apiUrl: "http://sluice.test/api/v1",
      fetch: async (_input, init) => {
        sent.push(new Headers(init?.headers).get("last-event-id"));
        return answers.shift()!;
      },
    });
    const events: OrderStreamEvent[] = [];
    for await (const event of client.streamOrders({ orderId: "o1" }, { lastEventId: "3" }))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual(["resync", "snapshot", "order"]);
    expect(events[0]).toEqual({ type: "resync", lastEventId: "3", oldestResumableId: "40" });
    expect(sent).toEqual(["3", "51"]);
  });

  it("returns after `end` without reconnecting", async () => {
    let opened = 0;
    const client = createSluiceClient({
      apiUrl: "http://sluice.test/api/v1",
      fetch: async () => {
        opened += 1;
        return sse(
          `retry: 10\n\nevent: snapshot\nid: 9\ndata: {"orderId":"o1"}\n\nevent: end\nid: 9\ndata: {}\n\n`,
        );
      },
    });
    const events: OrderStreamEvent[] = [];
    for await (const event of client.streamOrders({ orderId: "o1" })) events.push(event);
    expect(events.map((e) => e.type)).toEqual(["snapshot"]);
    expect(opened).toBe(1);
  });

  it("gives up with OrderStreamUnavailableError on an answer that is not a stream, or after maxDrops empty drops", async () => {
    const html = createSluiceClient({
      apiUrl: "http://sluice.test/api/v1",
      fetch: async () => new Response("<html>buffered</html>", { headers: { "content-type": "text/html" } }),
    });
    await expect(html.streamOrders({ orderId: "o1" }).next()).rejects.toBeInstanceOf(
      OrderStreamUnavailableError,
    );

    let opened = 0;
    const dropping = createSluiceClient({
      apiUrl: "http://sluice.test/api/v1",
      fetch: async () => {
        opened += 1;
        return sse("retry: 5\n\n: heartbeat\n\n");
      },
    });
    const error = await dropping
      .streamOrders({ orderId: "o1" }, { maxDrops: 2 })
      .next()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OrderStreamUnavailableError);
    expect(opened).toBe(3);
  });
});

function sse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
}

/**
 * A fetch to the real server that ends each stream's body right after its `afterOrderEvents`-th `order` event (as a
 * proxy dropping the connection would), shortens the server's `retry:` so the test reconnects at once, and records
 * each connection's Last-Event-ID.
 */
function cuttingFetch(options: { afterOrderEvents: number }) {
  const connections: Array<{ lastEventId: string | null }> = [];
  const fetcher: typeof fetch = async (input, init) => {
    connections.push({ lastEventId: new Headers(init?.headers).get("last-event-id") });
    const response = await fetch(input, init);
    const upstream = response.body!.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = "";
    let orderEvents = 0;
    const body = new ReadableStream<Uint8Array>({
      // Reads until at least one whole event passes: a pull that enqueues nothing is not called again.
      async pull(controller) {
        for (let passed = 0; passed === 0; ) {
          const { done, value } = await upstream.read();
          if (done) return controller.close();
          pending += decoder.decode(value, { stream: true });
          for (let end = pending.indexOf("\n\n"); end !== -1; end = pending.indexOf("\n\n")) {
            const block = pending.slice(0, end + 2).replace(/^retry: \d+$/m, "retry: 20");
            pending = pending.slice(end + 2);
            controller.enqueue(encoder.encode(block));
            passed += 1;
            if (block.startsWith("event: order\n") && ++orderEvents === options.afterOrderEvents) {
              await upstream.cancel();
              return controller.close();
            }
          }
        }
      },
      cancel: () => upstream.cancel(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { connections, fetcher };
}

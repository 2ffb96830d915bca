// What one order stream holds, whatever its client does: its snapshot is read a page at a time, each page only once
// the client has taken the previous one, and the changes made meanwhile continue exactly where the snapshot ended
// (an order read after it changed is not sent its older changes again); a client that takes nothing gets at most
// `maxQueuedBytes` of changes queued, the rest read back from the log once it reads, every change once and in order;
// and however many streams read at once, at most the budget's connections are theirs. Driven below the HTTP layer,
// pulling messages one at a time, on the real database and order feed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database, QueryOptions } from "../../src/db/client.ts";
import { ConnectionBudget } from "../../src/db/connection-budget.ts";
import {
  type OpenStream,
  OrderStreams,
  SNAPSHOT_PAGE_SIZE,
  type StreamMessage,
} from "../../src/orders/order-stream.ts";
import { StreamFilter } from "../../src/orders/stream-filter.ts";
import type { OrderStatus } from "../../src/orders/tables.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { hex, insertOrders } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

const at = new Date(Date.UTC(2026, 5, 1));

/** `database` with its reads counted: snapshot pages, reads of the log, all queries, and the most running at once. */
function countingReads(database: Database) {
  const counts = { pages: 0, logReads: 0, queries: 0, running: 0, mostRunning: 0 };
  const counted = {
    kind: database.kind,
    async query(text: string, params?: unknown[], options?: QueryOptions) {
      counts.queries += 1;
      if (/^with page as/.test(text)) counts.pages += 1;
      if (/from order_events e join orders o/.test(text)) counts.logReads += 1;
      counts.running += 1;
      counts.mostRunning = Math.max(counts.mostRunning, counts.running);
      try {
        // A pause inside each read, so reads that may overlap do.
        await new Promise((resolve) => setTimeout(resolve, 2));
        return await database.query(text, params, options);
      } finally {
        counts.running -= 1;
      }
    },
  };
  return { database: counted as unknown as Database, counts };
}

/** The next `count` messages, failing if they do not come within a few seconds. */
async function take(stream: OpenStream, count: number): Promise<StreamMessage[]> {
  const taken: StreamMessage[] = [];
  while (taken.length < count) {
    const next = await Promise.race([
      stream.messages.next(),
      new Promise<"late">((resolve) => setTimeout(() => resolve("late"), 10_000)),
    ]);
    if (next === "late") throw new Error(`only ${taken.length} of ${count} messages came`);
    if (next.done) throw new Error(`the stream ended after ${taken.length} of ${count} messages`);
    taken.push(next.value);
  }
  return taken;
}

const recordOf = (message: StreamMessage) =>
  "order" in message ? (JSON.parse(message.order) as { orderId: string; orderStatus: string }) : undefined;

describe.each(databaseKinds)("a bounded order stream (%s)", (kind) => {
  let database: Database;
  let sluice: Sluice;
  const swappers = { n: 0x7000 };
  const freshSwapper = () => hex(40, swappers.n++) as `0x${string}`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ sluice } = await createTestServer(database, { deployment: unstartedDeployment() }));
    await sluice.parts.orderFeed.start();
  });
  afterAll(async () => {
    await sluice?.stop();
    await database?.close();
  });

  const change = (orderId: string, from: OrderStatus, to: OrderStatus) =>
    changeOrderStatus(database, sluice.parts.orderEvents, { orderId, from, to, reason: "test", at });
  const newestId = async () =>
    BigInt((await database.query<{ id: string }>("select max(id)::text as id from order_events"))[0]!.id);
  const idsOf = async (swapper: string) =>
    (
      await database.query<{ order_id: string }>(
        "select order_id from orders where swapper = $1 order by created_at desc, order_id desc",
        [swapper],
      )
    ).map((row) => row.order_id);
  const logIdsAfter = async (swapper: string, after: bigint) =>
    (
      await database.query<{ id: string }>(
        `select e.id::text as id from order_events e join orders o using (order_id)
          where o.swapper = $1 and e.id > $2::bigint order by e.id`,
        [swapper, after.toString()],
      )
    ).map((row) => BigInt(row.id));
  const fedThrough = async (id: bigint) => {
    for (let tries = 0; sluice.parts.orderFeed.position < id; tries++) {
      if (tries > 2000) throw new Error(`the feed did not reach ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const streamsOn = (reads: Database, options: { budget?: number; maxQueuedBytes?: number } = {}) =>
    new OrderStreams(reads, sluice.parts.orderFeed, {
      budget: new ConnectionBudget(options.budget ?? 2),
      ...(options.maxQueuedBytes ? { maxQueuedBytes: options.maxQueuedBytes } : {}),
    });

  it("reads the snapshot a page at a time as it is taken, and continues exactly where it ended", async () => {
    const swapper = freshSwapper();
    const total = 3 * SNAPSHOT_PAGE_SIZE + 17;
    await insertOrders(database, { count: total, swapper, solverId: "ext_many", from: at });
    const expected = await idsOf(swapper);
    const snapshotId = await newestId();
    const { database: reads, counts } = countingReads(database);
    const opened = await streamsOn(reads).open(StreamFilter.of({ swapper }), undefined);
    if (opened.kind !== "open") throw new Error("not open");
    try {
      // One page read to open, the next only once the first is taken.
      expect(counts.pages).toBe(1);
      const first = await take(opened, SNAPSHOT_PAGE_SIZE + 50);
      expect(counts.pages).toBe(2);

      // An order already sent changes, and one of the last page changes twice before that page is read.
      const sent = expected[10]!;
      const unread = expected[3 * SNAPSHOT_PAGE_SIZE + 3]!;
      await change(sent, "open", "filled");
      await change(unread, "open", "insufficient-funds");
      await change(unread, "insufficient-funds", "cancelled");
      const rest = await take(opened, total - first.length);
      const snapshot = [...first, ...rest];
      expect(snapshot.every((m) => m.kind === "snapshot" && m.id === snapshotId)).toBe(true);
      expect(snapshot.map((m) => recordOf(m)!.orderId)).toEqual(expected);
      expect(recordOf(snapshot[10]!)!.orderStatus).toBe("open");
      expect(recordOf(snapshot[3 * SNAPSHOT_PAGE_SIZE + 3]!)!.orderStatus).toBe("cancelled");
      expect(counts.pages).toBe(4);

      // Then the changes after the snapshot's id: the sent order's, not the ones the snapshot already showed.
      const later = expected[0]!;
      await change(later, "open", "expired");
      const changes = await take(opened, 2);
      expect(changes.map((m) => [m.kind, recordOf(m)!.orderId, recordOf(m)!.orderStatus])).toEqual([
        ["order", sent, "filled"],
        ["order", later, "expired"],
      ]);
      const logged = await logIdsAfter(swapper, snapshotId);
      expect(logged).toHaveLength(4);
      expect(changes.map((m) => ("id" in m ? m.id : undefined))).toEqual([logged[0], logged[3]]);
    } finally {
      opened.cancel();
    }
  });

  it("queues at most maxQueuedBytes for a client that takes nothing, then reads the rest from the log", async () => {
    const swapper = freshSwapper();
    await insertOrders(database, { count: 3, swapper, solverId: "ext_many", from: at });
    const orders = await idsOf(swapper);
    const maxQueuedBytes = 8 * 1024;
    const { database: reads, counts } = countingReads(database);
    const opened = await streamsOn(reads, { maxQueuedBytes }).open(StreamFilter.of({ swapper }), undefined);
    if (opened.kind !== "open") throw new Error("not open");
    try {
      const snapshot = await take(opened, 3);
      const snapshotId = (snapshot[0] as { id: bigint }).id;
      // 60 changes of about a kilobyte each, while the client takes nothing.
      for (let round = 0; round < 10; round++)
        for (const orderId of orders) {
          await change(orderId, "open", "insufficient-funds");
          await change(orderId, "insufficient-funds", "open");
        }
      const logged = await logIdsAfter(swapper, snapshotId);
      expect(logged).toHaveLength(60);
      await fedThrough(logged.at(-1)!);
      expect(opened.queuedBytes).toBeLessThanOrEqual(maxQueuedBytes);

      expect(counts.logReads).toBe(0);
      const changes = await take(opened, 60);
      expect(changes.map((m) => ("id" in m ? m.id : undefined))).toEqual(logged);
      expect(changes.every((m) => m.kind === "order")).toBe(true);
      // What the queue had no room for was read back from the log.
      expect(counts.logReads).toBeGreaterThan(0);
    } finally {
      opened.cancel();
    }
  });

  it("reads through its connection budget: streams opening at once never run more reads than it allows", async () => {
    const swapper = freshSwapper();
    const total = 2 * SNAPSHOT_PAGE_SIZE + 1;
    await insertOrders(database, { count: total, swapper, solverId: "ext_many", from: at });
    const { database: reads, counts } = countingReads(database);
    const streams = streamsOn(reads, { budget: 2 });
    const opened = await Promise.all(
      Array.from({ length: 12 }, () => streams.open(StreamFilter.of({ swapper }), undefined)),
    );
    try {
      const snapshots = await Promise.all(
        opened.map((stream) => (stream.kind === "open" ? take(stream, total) : Promise.resolve([]))),
      );
      expect(snapshots.map((messages) => messages.length)).toEqual(Array(12).fill(total));
      expect(counts.pages).toBe(12 * 3);
      expect(counts.mostRunning).toBe(2);
    } finally {
      for (const stream of opened) if (stream.kind === "open") stream.cancel();
    }
  });
});

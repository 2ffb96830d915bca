// Order streams across replicas (PostgreSQL): two Sluice instances on one database, each with its own order feed.
// A change committed on replica A reaches a stream held by replica B (NOTIFY); a transaction that holds the log's
// next id open delays the commits after it instead of letting a reader pass it (nothing is skipped, ids arrive in
// order); and after B's listening connection is killed, B reads what committed meanwhile from the log.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import type { OrderStatus } from "../../src/orders/tables.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createEmptyPostgresDatabase, type EmptyPostgresDatabase } from "../support/db.ts";
import { eventually, settledWithin } from "../support/gates.ts";
import { hex, newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";
import { listenForOrderStreams, openSse, type SseEvent } from "../support/sse.ts";

const at = new Date(Date.UTC(2026, 5, 1));
const orderEvents = (events: SseEvent[]) => events.filter((e) => e.event === "order");

describe.skipIf(!process.env.TEST_DATABASE_URL)("order stream across replicas (postgres)", () => {
  let empty: EmptyPostgresDatabase;
  const databases: Database[] = [];
  const replicas: Array<{ sluice: Sluice; streamUrl: string }> = [];
  let seed = 0x7000;
  const freshSwapper = () => hex(40, seed++);

  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 5 });
      if (i === 0) await migrate(database);
      databases.push(database);
      const { sluice } = await createTestServer(database, { deployment: unstartedDeployment() });
      replicas.push({ sluice, streamUrl: await listenForOrderStreams(sluice.parts.orderFeed, sluice.http) });
    }
  });
  afterAll(async () => {
    for (const { sluice } of replicas) await sluice.stop();
    for (const database of databases) await database.close();
    await empty?.drop();
  });

  const a = () => ({ database: databases[0]!, sluice: replicas[0]!.sluice });
  const createOnA = async (swapper: string) =>
    (
      await new OrderRepository(a().database, a().sluice.parts.orderEvents, new OrderStats()).createOnce(
        newOrder("ext_r", at, { swapper }),
      )
    ).order;
  const changeOnA = (orderId: string, from: OrderStatus, to: OrderStatus) =>
    changeOrderStatus(a().database, a().sluice.parts.orderEvents, { orderId, from, to, reason: "test", at });

  it("a change committed on replica A reaches a stream on replica B, a new order too", async () => {
    const swapper = freshSwapper();
    const first = await createOnA(swapper);
    const stream = await openSse(`${replicas[1]!.streamUrl}?swapper=${swapper}`);
    try {
      await stream.until((events) => events.some((e) => e.event === "snapshot"));
      await changeOnA(first.orderId, "open", "filled");
      const second = await createOnA(swapper);
      const events = orderEvents(await stream.until((all) => orderEvents(all).length === 2));
      expect(events.map((e) => [JSON.parse(e.data).orderId, JSON.parse(e.data).orderStatus])).toEqual([
        [first.orderId, "filled"],
        [second.orderId, "open"],
      ]);
    } finally {
      stream.close();
    }
  });

  it("a transaction holding the next id delays later commits: nothing is skipped, ids arrive in order", async () => {
    const swapper = freshSwapper();
    const held = await createOnA(swapper);
    const later = await createOnA(swapper);
    const stream = await openSse(`${replicas[1]!.streamUrl}?swapper=${swapper}`);
    const writer = new pg.Client({ connectionString: empty.url });
    await writer.connect();
    try {
      await stream.until((events) => events.filter((e) => e.event === "snapshot").length === 2);
      // Another writer's transaction changes `held` and takes its log id now (its deferred trigger fired early),
      // then stays open: the gate.
      await writer.query("begin");
      await writer.query("update orders set status = 'expired', updated_at = now() where order_id = $1", [
        held.orderId,
      ]);
      await writer.query("set constraints orders_record_event immediate");
      // Replica A changes `later` meanwhile: its commit waits for the id after the held one.
      const laterChange = changeOnA(later.orderId, "open", "cancelled");
      expect(await settledWithin(laterChange, 500), "A's commit waited for the open transaction").toBe(false);
      expect(orderEvents(stream.events)).toEqual([]);
      await writer.query("commit");
      await laterChange;
      const events = orderEvents(await stream.until((all) => orderEvents(all).length === 2));
      expect(events.map((e) => JSON.parse(e.data).orderId)).toEqual([held.orderId, later.orderId]);
      expect(BigInt(events[1]!.id!)).toBe(BigInt(events[0]!.id!) + 1n);
    } finally {
      stream.close();
      await writer.end();
    }
  });

  it("after its listening connection is killed, replica B reads what committed meanwhile", async () => {
    const swapper = freshSwapper();
    const order = await createOnA(swapper);
    const stream = await openSse(`${replicas[1]!.streamUrl}?swapper=${swapper}`);
    const admin = new pg.Client({ connectionString: empty.url });
    await admin.connect();
    try {
      await stream.until((events) => events.some((e) => e.event === "snapshot"));
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'sluice listen' and datname = current_database()`,
      );
      expect(killed.rowCount).toBe(2);
      await changeOnA(order.orderId, "open", "filled");
      const events = orderEvents(await stream.until((all) => orderEvents(all).length === 1));
      expect(JSON.parse(events[0]!.data)).toMatchObject({ orderId: order.orderId, orderStatus: "filled" });
      // Both replicas listen again.
      await eventually(
        async () =>
          (
            await admin.query(
              `select 1 from pg_stat_activity where application_name = 'sluice listen' and datname = current_database()`,
            )
          ).rowCount === 2,
        "both listening connections are back",
      );
    } finally {
      stream.close();
      await admin.end();
    }
  });
});

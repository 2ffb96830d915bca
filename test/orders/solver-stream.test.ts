// A solver's order stream (`solverId=` or `filler=`): 401 without its credentials (and no execution fields), 403
// for another solver's orders, and with them its open orders with the execution fields, each new order assigned to
// it at once, never another solver's. Its streams count against the solver (STREAM_MAX_PER_SOLVER), not against
// its address's STREAM_MAX_PER_IP.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database } from "../../src/db/client.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase } from "../support/db.ts";
import { hex, newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";
import { listenForOrderStreams, openSse, type SseEvent, type SseStream } from "../support/sse.ts";

const at = new Date(Date.UTC(2026, 5, 1));
const ALPHA_FILLER = hex(40, 0xa1);
const BETA_FILLER = hex(40, 0xb2);
const solverConfig = (id: string, filler: string) => ({
  id,
  name: id,
  endpoint: "http://127.0.0.1:9/",
  filler,
  internal: false,
  enabled: true,
  sharedSecretEnv: `${id.toUpperCase()}_SECRET`,
});
const credentials = (id: string, secret = `secret-${id}`) => ({
  "x-solver-id": id,
  "x-rfq-shared-secret": secret,
});
const records = (events: SseEvent[]) => events.map((e) => ({ event: e.event, ...JSON.parse(e.data) }));

describe("a solver's order stream", () => {
  let database: Database;
  let sluice: Sluice;
  let base: string;
  let repository: OrderRepository;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    ({ sluice } = await createTestServer(database, {
      deployment: unstartedDeployment(
        placeholderDeployment({
          solvers: [solverConfig("ext_alpha", ALPHA_FILLER), solverConfig("ext_beta", BETA_FILLER)],
        }),
      ),
      env: { STREAM_MAX_PER_IP: "2", STREAM_MAX_PER_SOLVER: "3" },
    }));
    base = await listenForOrderStreams(sluice.parts.orderFeed, sluice.http);
    repository = new OrderRepository(database, sluice.parts.orderEvents, new OrderStats());
  });
  afterAll(async () => {
    await sluice?.stop();
    await database?.close();
  });

  const create = async (solverId: string, filler: string) =>
    (await repository.createOnce(newOrder(solverId, at, { filler }))).order;

  it("answers 401 without valid credentials, 403 for another solver's orders", async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      credentials("ext_alpha", "wrong"),
      { "x-solver-id": "ext_alpha" },
    ];
    for (const headers of attempts) {
      const refused = await openSse(`${base}?solverId=ext_alpha`, headers);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body).error.code).toBe("UNAUTHORIZED");
      expect(refused.body).not.toContain("encodedOrder");
    }
    const unknown = await openSse(`${base}?solverId=ext_nobody`, credentials("ext_nobody"));
    expect(unknown.status).toBe(401);
    const byId = await openSse(`${base}?solverId=ext_alpha`, credentials("ext_beta"));
    expect(byId.status).toBe(403);
    const byFiller = await openSse(`${base}?filler=${ALPHA_FILLER}`, credentials("ext_beta"));
    expect(byFiller.status).toBe(403);
  });

  it("sends its open orders with execution fields, then each new order of its own at once, never another's", async () => {
    const mine = await create("ext_alpha", ALPHA_FILLER);
    const done = await create("ext_alpha", ALPHA_FILLER);
    await changeOrderStatus(database, sluice.parts.orderEvents, {
      orderId: done.orderId,
      from: "open",
      to: "filled",
      reason: "test",
      at,
    });
    await create("ext_beta", BETA_FILLER);
    const byId = await openSse(`${base}?solverId=ext_alpha`, credentials("ext_alpha"));
    const byFiller = await openSse(`${base}?filler=${ALPHA_FILLER}`, credentials("ext_alpha"));
    try {
      for (const stream of [byId, byFiller]) {
        const [snapshot] = records(await stream.until((events) => events.length === 1));
        expect(snapshot).toMatchObject({
          event: "snapshot",
          orderId: mine.orderId,
          encodedOrder: mine.encodedOrder,
          protocolSignature: mine.protocolSignature,
          deadline: mine.deadline,
          filler: ALPHA_FILLER,
        });
      }
      await create("ext_beta", BETA_FILLER);
      const won = await create("ext_alpha", ALPHA_FILLER);
      await changeOrderStatus(database, sluice.parts.orderEvents, {
        orderId: mine.orderId,
        from: "open",
        to: "expired",
        reason: "test",
        at,
      });
      for (const stream of [byId, byFiller]) {
        const events = records(await stream.until((all) => all.length === 3)).slice(1);
        expect(events.map((e) => [e.event, e.orderId, e.orderStatus])).toEqual([
          ["order", won.orderId, "open"],
          ["order", mine.orderId, "expired"],
        ]);
        expect(events[0]).toMatchObject({ encodedOrder: won.encodedOrder, filler: ALPHA_FILLER });
        // No execution fields once the order is not open, as GET /orders.
        expect(events[1]).not.toHaveProperty("encodedOrder");
      }
    } finally {
      byId.close();
      byFiller.close();
    }
  });

  it("counts a solver's streams against the solver, not against its address", async () => {
    const held: SseStream[] = [];
    try {
      // The address's two wallet streams: its cap is reached.
      for (let i = 0; i < 2; i++) held.push(await openSse(`${base}?orderId=${randomUUID()}`));
      expect(held.map((stream) => stream.status)).toEqual([200, 200]);
      const third = await openSse(`${base}?orderId=${randomUUID()}`);
      expect([third.status, JSON.parse(third.body).error.code]).toEqual([429, "TOO_MANY_STREAMS"]);

      // From the same address, each solver still opens its own streams, up to its own cap.
      for (const query of ["solverId=ext_alpha", `filler=${ALPHA_FILLER}`, "solverId=ext_alpha"])
        held.push(await openSse(`${base}?${query}`, credentials("ext_alpha")));
      held.push(await openSse(`${base}?solverId=ext_beta`, credentials("ext_beta")));
      expect(held.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const fourth = await openSse(`${base}?solverId=ext_alpha`, credentials("ext_alpha"));
      expect(fourth.status).toBe(429);
      expect(JSON.parse(fourth.body).error).toMatchObject({
        code: "TOO_MANY_STREAMS",
        details: { limit: 3 },
      });
    } finally {
      for (const stream of held) stream.close();
    }
  });
});

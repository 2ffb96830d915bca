// notifyUrl: a new order assigned to a solver that configured one is POSTed there once committed — the record with
// its execution fields, HMAC-signed with the solver's secret; nothing for other solvers' orders or for status
// changes; a receiver that does not answer is given up on at the timeout, not retried, and holds nothing else up.
// The deployment file refuses a plain-http notifyUrl off loopback.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import {
  notificationSignature,
  SIGNATURE_HEADER,
  SolverNotifications,
  TIMESTAMP_HEADER,
} from "../../src/orders/solver-notifications.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { newOrder } from "../support/order-rows.ts";
import { changeOrderStatus } from "../support/orders.ts";
import { placeholderDeployment } from "../support/server.ts";

const at = new Date(Date.UTC(2026, 5, 1));

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe("solver notifications", () => {
  let database: Database;
  let receiver: Server;
  let url: string;
  const received: Received[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({ path: request.url ?? "", headers: request.headers, body });
        // The slow solver never answers.
        if (request.url !== "/slow") response.end("ok");
      });
    });
    receiver.listen(0, "127.0.0.1");
    await once(receiver, "listening");
    const address = receiver.address();
    if (!address || typeof address === "string") throw new Error("not listening");
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    receiver?.close();
    await database?.close();
  });

  it("POSTs each new order of a solver with a notifyUrl, signed, with its execution fields; nothing else", async () => {
    const events = new OrderEvents();
    const notifications = new SolverNotifications({
      database,
      events,
      solvers: [
        { id: "ext_fast", notifyUrl: `${url}/fast`, sharedSecret: "fast-secret" },
        { id: "ext_slow", notifyUrl: `${url}/slow`, sharedSecret: "slow-secret" },
      ],
      logger: silentLogger(),
      timeoutMs: 1500,
    });
    notifications.start();
    const repository = new OrderRepository(database, events, new OrderStats());
    try {
      // The slow receiver's timeout does not hold the next notification.
      await repository.createOnce(newOrder("ext_slow", at));
      const { order } = await repository.createOnce(newOrder("ext_fast", at));
      await repository.createOnce(newOrder("ext_silent", at));
      await changeOrderStatus(database, events, {
        orderId: order.orderId,
        from: "open",
        to: "filled",
        reason: "test",
        at,
      });
      await eventually(() => received.some((r) => r.path === "/fast"), "the fast solver is notified");
      await notifications.stop();

      const fast = received.filter((r) => r.path === "/fast");
      expect(fast).toHaveLength(1);
      const [notice] = fast;
      const record = JSON.parse(notice!.body);
      expect(record).toMatchObject({
        orderId: order.orderId,
        orderStatus: "open",
        encodedOrder: order.encodedOrder,
        protocolSignature: order.protocolSignature,
        deadline: order.deadline,
        filler: order.filler,
      });
      const timestamp = notice!.headers[TIMESTAMP_HEADER] as string;
      expect(notice!.headers[SIGNATURE_HEADER]).toBe(
        notificationSignature("fast-secret", timestamp, notice!.body),
      );
      expect(notice!.headers["x-solver-id"]).toBe("ext_fast");
      // The slow one was sent once and given up on; no retry.
      expect(received.filter((r) => r.path === "/slow")).toHaveLength(1);
      expect(received).toHaveLength(2);
    } finally {
      await notifications.stop();
    }
  });

  it("accepts an https notifyUrl or a loopback http one, and refuses plain http elsewhere", () => {
    const solver = (notifyUrl: string) => ({
      id: "ext_n",
      name: "n",
      endpoint: "https://solver.example/",
      filler: `0x${"1".repeat(40)}`,
      internal: false,
      sharedSecretEnv: "N_SECRET",
      notifyUrl,
    });
    for (const ok of ["https://solver.example/won", "http://127.0.0.1:9000/won", "http://localhost/won"])
      expect(placeholderDeployment({ solvers: [solver(ok)] }).solvers[0]?.notifyUrl).toBe(ok);
    expect(() =>
      parseDeployment({ ...placeholderDeployment(), solvers: [solver("http://solver.example/won")] }, "test"),
    ).toThrow(/notifyUrl: must be https/);
  });
});

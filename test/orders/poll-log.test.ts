// The request line of a solver's open-orders poll (each bundled solver polls twice a second) is at debug, so an idle
// server's log at info is not a wall of polls; every other GET /orders stays at info.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { captureLogs } from "../reference-solver/support.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

describe("GET /orders request lines", () => {
  const logs = captureLogs();
  let database: Database;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    ({ app } = await createTestServer(database, { logger: logs.logger, deployment: unstartedDeployment() }));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("logs a solver's open-orders poll at debug and other lists at info", async () => {
    const poll = "/api/v1/orders?solverId=sluice_alpha&orderStatus=open&sort=asc";
    const wallet = `/api/v1/orders?swapper=0x${"1".repeat(40)}`;
    for (const url of [poll, wallet]) expect((await app.inject({ url })).statusCode).toBe(200);
    const line = (url: string) =>
      logs.waitFor((entry) => entry.msg === "request" && entry.url === url, { what: `the line of ${url}` });
    expect((await line(poll)).level).toBe(20);
    expect((await line(wallet)).level).toBe(30);
  });
});

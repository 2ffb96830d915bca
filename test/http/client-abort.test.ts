// A client that hangs up in the middle of its request body (issue 21.5): Node reports it as an error with code
// ECONNRESET, which is no database's. Nothing in the log says "database unavailable": an alert on that line fires for
// the database alone.

import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

describe("a client that aborts mid-body", () => {
  let database: Database;
  let app: App;
  let internal: App;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    ({ app, internal } = await createTestServer(database, { logger, deployment: unstartedDeployment() }));
    await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await internal.close();
    await database.close();
  });

  it("is not logged as the database unavailable", async () => {
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(
      "POST /api/v1/liquidity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        'Content-Length: 1000\r\n\r\n{"tokenIn": "0x',
    );
    // The server has started reading the body when its request is under way: then the client hangs up.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.resetAndDestroy();
    await eventually(
      () => lines.some((line) => line.msg === "the client hung up before its request was read"),
      "the server has seen the client hang up",
      { timeoutMs: 5000 },
    );
    // Its error carries ECONNRESET, as a broken database connection's would: it is not one.
    const aborted = lines.find((line) => line.msg === "the client hung up before its request was read");
    expect(JSON.stringify(aborted)).toContain("ECONNRESET");
    expect(lines.filter((line) => /database/i.test(String(line.msg)))).toEqual([]);
  });
});

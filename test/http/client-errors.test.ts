// What Node's HTTP parser rejects before any route runs — a malformed request line, oversized headers, headers or a
// body not received in time — answers the swap-flow envelope with an X-Request-Id and closes the connection; and
// the docs' static files refuse traversal with 404 NOT_FOUND. Over real sockets, with short configured timeouts.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../../src/config/env.ts";
import { DEFAULT_HTTP_TIMEOUTS, HEARTBEAT_INTERVAL_MS } from "../../src/config/http-timeouts.ts";
import type { Database } from "../../src/db/client.ts";
import { SwapErrorSchema } from "../../src/http/errors.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { settledWithin } from "../support/gates.ts";
import { openRaw, parseRawAnswer } from "../support/raw-http.ts";
import { createTestServer } from "../support/server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 1000;
/** How long a test waits for the server to act on a timeout; generous for a loaded machine, far below Node's defaults. */
const PATIENCE_MS = 10_000;

describe("client errors and timeouts", () => {
  let database: Database;
  let app: App;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    ({ app } = await createTestServer(database, {
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      },
    }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** Sends `data`, waits for the server to close the connection, and checks the envelope it answered. */
  async function expectEnvelope(data: string, status: number, code: string) {
    const connection = await openRaw(port);
    await connection.write(data);
    expect(await settledWithin(connection.closed, PATIENCE_MS), "the server closes the connection").toBe(
      true,
    );
    const answer = parseRawAnswer(await connection.closed);
    expect(answer.status).toBe(status);
    expect(answer.headers["x-request-id"]).toMatch(UUID);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    const body = SwapErrorSchema.parse(JSON.parse(answer.body));
    expect(body.error).toMatchObject({ code, status });
  }

  it("answers a malformed request line with 400 MALFORMED_REQUEST", async () => {
    await expectEnvelope("NOT AN HTTP REQUEST\r\n\r\n", 400, "MALFORMED_REQUEST");
    await expectEnvelope("GET /api/v1/health HTTP/9.9\r\nHost: x\r\n\r\n", 400, "MALFORMED_REQUEST");
    await expectEnvelope("GET /api/v1/he\u0000alth HTTP/1.1\r\nHost: x\r\n\r\n", 400, "MALFORMED_REQUEST");
  });

  it("answers headers larger than Node's limit with 431 HEADERS_TOO_LARGE", async () => {
    const big = "a".repeat(20 * 1024);
    await expectEnvelope(
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`,
      431,
      "HEADERS_TOO_LARGE",
    );
  });

  it("answers headers not received in time with 408 REQUEST_TIMEOUT", async () => {
    await expectEnvelope("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n", 408, "REQUEST_TIMEOUT");
  });

  it("cuts off a body sent one byte at a time with 408 REQUEST_TIMEOUT", async () => {
    const connection = await openRaw(port);
    const body = JSON.stringify({ walletAddress: `0x${"1".repeat(40)}` });
    await connection.write(
      `POST /api/v1/check_approval HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    // One byte every 100 ms: never idle, but the whole body would take far longer than the request timeout.
    let sent = 0;
    const started = Date.now();
    while (!connection.isClosed() && sent < body.length && Date.now() - started < PATIENCE_MS) {
      await connection.write(body[sent]!);
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(connection.isClosed(), "the server closed the connection before the body was complete").toBe(true);
    expect(sent).toBeLessThan(body.length);
    const answer = parseRawAnswer(await connection.closed);
    expect(answer.status).toBe(408);
    expect(answer.headers["x-request-id"]).toMatch(UUID);
    expect(SwapErrorSchema.parse(JSON.parse(answer.body)).error.code).toBe("REQUEST_TIMEOUT");
  });

  it("answers a request that arrives in time as usual on the same server", async () => {
    const connection = await openRaw(port);
    await connection.write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const answer = parseRawAnswer(await connection.closed);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: "ok", timestamp: expect.any(String) });
  });

  it.each([
    "/api/v1/docs/static/..%2f..%2f..%2fpackage.json",
    "/api/v1/docs/static/..%5c..%5c..%5cpackage.json",
    "/api/v1/docs/static/%2e%2e/%2e%2e/package.json",
    "/api/v1/docs/static/../../../package.json",
    "/api/v1/docs/static/%00",
    "/api/v1/docs/static/index.css%00.png",
    "/api/v1/docs/static/.hidden",
  ])("answers the docs traversal attempt %s with 404 NOT_FOUND", async (url) => {
    const response = await app.inject({ url });
    expect(response.statusCode, response.body).toBe(404);
    expect(SwapErrorSchema.parse(response.json()).error.code).toBe("NOT_FOUND");
    expect(response.headers["x-request-id"]).toMatch(UUID);
  });

  it("keeps idle sockets open longer than the 15 s heartbeat, and refuses a shorter idle timeout", () => {
    expect(DEFAULT_HTTP_TIMEOUTS.idleMs).toBeGreaterThan(HEARTBEAT_INTERVAL_MS);
    expect(app.server.timeout).toBe(DEFAULT_HTTP_TIMEOUTS.idleMs);
    expect(app.server.keepAliveTimeout).toBeGreaterThan(HEARTBEAT_INTERVAL_MS);
    expect(() => readEnv({ HTTP_IDLE_TIMEOUT_MS: "15000" })).toThrow(/HTTP_IDLE_TIMEOUT_MS/);
    expect(() => readEnv({ HTTP_HEADERS_TIMEOUT_MS: "40000", HTTP_REQUEST_TIMEOUT_MS: "30000" })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(readEnv({})).toMatchObject({
      HTTP_HEADERS_TIMEOUT_MS: DEFAULT_HTTP_TIMEOUTS.headersMs,
      HTTP_REQUEST_TIMEOUT_MS: DEFAULT_HTTP_TIMEOUTS.requestMs,
      HTTP_IDLE_TIMEOUT_MS: DEFAULT_HTTP_TIMEOUTS.idleMs,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: DEFAULT_HTTP_TIMEOUTS.keepAliveMs,
      SHUTDOWN_TIMEOUT_MS: DEFAULT_HTTP_TIMEOUTS.shutdownMs,
    });
  });
});

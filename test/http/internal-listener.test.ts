// The internal listener's guards (INTERNAL_API_AUTH=network asks no credentials, so its network is its guard): no
// CORS, so a web page of another origin cannot read its answers; and only requests whose Host names it (localhost,
// a loopback address, INTERNAL_HOST, the address the connection reached, INTERNAL_ALLOWED_HOSTS), so a page reaching
// it through DNS rebinding under its own name gets 421 before any route runs. The public listener keeps its CORS and
// answers any Host.
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningPort } from "../../src/app/listen-address.ts";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database } from "../../src/db/client.ts";
import { SwapErrorSchema } from "../../src/http/errors.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: unknown },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        agent: false,
        method: options.method ?? "GET",
        path: options.path,
        headers: {
          ...(payload
            ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** Sends `text` as it is and reads the answer to its end. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const EVIL = "https://evil.example";
const RESOLVE = {
  method: "POST",
  path: "/api-internal/v1/discounts",
  body: { discountIds: [`0x${"1".repeat(64)}`] },
};

describe("the internal listener in network mode", () => {
  let database: Database;
  let sluice: Sluice;
  let publicPort: number;
  let internalPort: number;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    ({ sluice } = await createTestServer(database, {
      deployment: unstartedDeployment(),
      env: { INTERNAL_API_AUTH: "network", INTERNAL_ALLOWED_HOSTS: "sluice-internal, scraper.local:9100" },
    }));
    await sluice.http.listen({ port: 0, host: "127.0.0.1" });
    await sluice.internalHttp.listen({ port: 0, host: "127.0.0.1" });
    publicPort = listeningPort(sluice.http.server, 0);
    internalPort = listeningPort(sluice.internalHttp.server, 0);
  });
  afterAll(async () => {
    await sluice?.stop();
    await database?.close();
  });

  it("sends no CORS headers to another origin, for a request or a preflight", async () => {
    const answered = await send(internalPort, { ...RESOLVE, headers: { origin: EVIL } });
    expect(answered.status).not.toBe(421);
    expect(answered.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await send(internalPort, {
      method: "OPTIONS",
      path: RESOLVE.path,
      headers: {
        origin: EVIL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.status).toBeLessThan(500);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });

  it("answers 421 in the swap envelope to a Host that does not name it, before any route runs", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${internalPort}`,
      "sluice-internal.evil.example",
      "127.0.0.1.evil.example",
      `scraper.local:${internalPort}`,
      "10.9.8.7",
      "not a host",
    ]) {
      for (const target of [
        RESOLVE,
        { path: "/api-internal/v1/health" },
        { path: "/metrics" },
        { path: "/nowhere" },
      ]) {
        const answer = await send(internalPort, { ...target, headers: { host, origin: EVIL } });
        expect([host, target.path, answer.status]).toEqual([host, target.path, 421]);
        const body = SwapErrorSchema.parse(JSON.parse(answer.body));
        expect(body.error).toMatchObject({ code: "MISDIRECTED_REQUEST", status: 421 });
        expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
      }
    }
  });

  it("answers the names it is known by: localhost and loopback with or without a port, its own address, the allowed ones", async () => {
    for (const host of [
      "localhost",
      `localhost:${internalPort}`,
      "LOCALHOST",
      "127.0.0.1",
      `127.0.0.1:${internalPort}`,
      "[::1]",
      `[::1]:${internalPort}`,
      "sluice-internal",
      `sluice-internal:${internalPort}`,
      "scraper.local:9100",
    ]) {
      const health = await send(internalPort, { path: "/api-internal/v1/health", headers: { host } });
      expect([host, health.status]).toEqual([host, 200]);
      const resolved = await send(internalPort, { ...RESOLVE, headers: { host } });
      expect([host, resolved.status === 421]).toEqual([host, false]);
    }
    // A request without a Host (HTTP/1.0) comes from no browser.
    const bare = await rawRequest(internalPort, "GET /api-internal/v1/health HTTP/1.0\r\n\r\n");
    expect(bare).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("leaves the public listener as it was: CORS for any origin, any Host", async () => {
    const answer = await send(publicPort, {
      path: "/api/v1/health",
      headers: { host: "evil.example", origin: EVIL },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBe(EVIL);
    const preflight = await send(publicPort, {
      method: "OPTIONS",
      path: "/api/v1/quote",
      headers: { host: "evil.example", origin: EVIL, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(EVIL);
  });
});

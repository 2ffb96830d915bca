import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("http server core", () => {
  let database: Database;
  let app: App;
  /** The internal listener's server: /metrics is there, not on the public port. */
  let internal: App;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    ({ app, internal } = await createTestServer(database, { logger: pino({ level: "info" }, sink) }));
  });
  afterAll(async () => {
    await app.close();
    await internal.close();
    await database.close();
  });

  it("gives every attempt a fresh X-Request-Id and ignores an inbound one", async () => {
    const first = await app.inject({ url: "/api/v1/health", headers: { "x-request-id": "not-ours" } });
    const second = await app.inject({ url: "/api/v1/health" });
    expect(first.headers["x-request-id"]).toMatch(UUID);
    expect(second.headers["x-request-id"]).toMatch(UUID);
    expect(first.headers["x-request-id"]).not.toBe("not-ours");
    expect(first.headers["x-request-id"]).not.toBe(second.headers["x-request-id"]);
  });

  it("echoes X-Trace-Id only when the request carries one", async () => {
    const traced = await app.inject({ url: "/api/v1/health", headers: { "x-trace-id": "trace-123" } });
    expect(traced.headers["x-trace-id"]).toBe("trace-123");
    const untraced = await app.inject({ url: "/api/v1/health" });
    expect(untraced.headers["x-trace-id"]).toBeUndefined();
  });

  it("exposes both ids through CORS", async () => {
    const response = await app.inject({
      url: "/api/v1/health",
      headers: { origin: "https://wallet.example" },
    });
    expect(response.headers["access-control-allow-origin"]).toBe("https://wallet.example");
    const exposed = String(response.headers["access-control-expose-headers"]).toLowerCase();
    expect(exposed).toContain("x-request-id");
    expect(exposed).toContain("x-trace-id");
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/api/v1/quote",
      headers: { origin: "https://wallet.example", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(204);
  });

  it("logs each request once with method, route, status, duration and the request id", async () => {
    logLines.length = 0;
    const ok = await app.inject({ url: "/api/v1/health" });
    const missing = await app.inject({ url: "/api/v1/nowhere" });
    const requestLines = logLines.filter((line) => line.msg === "request");
    expect(requestLines).toHaveLength(2);
    const [okLine, missingLine] = requestLines;
    expect(okLine).toMatchObject({
      method: "GET",
      route: "/api/v1/health",
      status: 200,
      requestId: ok.headers["x-request-id"],
    });
    expect(typeof okLine?.durationMs).toBe("number");
    expect(missingLine).toMatchObject({ status: 404, requestId: missing.headers["x-request-id"] });
  });

  it("answers unknown paths with the envelope of their family", async () => {
    const swap = await app.inject({ url: "/api/v1/nowhere" });
    expect(swap.statusCode).toBe(404);
    const swapBody = swap.json();
    expect(swapBody.error).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(new Date(swapBody.error.timestamp).toISOString()).toBe(swapBody.error.timestamp);

    for (const url of ["/api/v1/entities/planets", "/api/v1/points/unknown/x/y/z", "/api/v1/points"]) {
      const partner = await app.inject({ url });
      expect(partner.statusCode, url).toBe(404);
      expect(partner.json(), url).toEqual({ errorCode: "pageNotFound", errorMessage: expect.any(String) });
    }
    const outside = await app.inject({ url: "/favicon.ico" });
    expect(outside.json().error.code).toBe("NOT_FOUND");
  });

  it("serves an OpenAPI 3.1 document generated from the route schemas", async () => {
    const response = await app.inject({ url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: "/api/v1" }]);
    expect(document.paths["/health"].get.responses["503"]).toBeDefined();
    expect(document.paths["/solver-logos/{filename}"]).toBeDefined();
    expect(document["x-error-codes"].swap).toContain("VALIDATION_FAILED");
  });

  it("gives component schemas no $id (standard tools resolve refs against it) and every $ref resolves", async () => {
    const document = (await app.inject({ url: "/api/v1/openapi.json" })).json();
    const ids: string[] = [];
    const refs: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) {
        for (const [index, item] of node.entries()) walk(item, `${path}/${index}`);
      } else if (node && typeof node === "object")
        for (const [key, value] of Object.entries(node)) {
          if (key === "$id") ids.push(path);
          if (key === "$ref") refs.push(String(value));
          walk(value, `${path}/${key}`);
        }
    };
    walk(document, "#");
    expect(ids).toEqual([]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9]+$/);
      expect(document.components.schemas, ref).toHaveProperty(ref.slice("#/components/schemas/".length));
    }
    // The docs page's own copy of the document is the same one.
    const docsCopy = (await app.inject({ url: "/api/v1/docs/json" })).json();
    expect(docsCopy.components.schemas).toEqual(document.components.schemas);
  });

  it("serves the interactive docs page", async () => {
    const response = await app.inject({ url: "/api/v1/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });

  it("exposes Prometheus metrics on the internal listener, not the public one", async () => {
    await app.inject({ url: "/api/v1/health" });
    expect((await app.inject({ url: "/metrics" })).statusCode).toBe(404);
    const response = await internal.inject({ url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(
      /sluice_http_requests_total\{method="GET",route="\/api\/v1\/health",status="200"\} \d+/,
    );
  });
});

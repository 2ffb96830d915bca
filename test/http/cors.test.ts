// The public API's CORS (src/http/cors.ts) answers what @fastify/cors answered with the options the server used to
// register it (`origin: true`, the same exposed headers, `strictPreflight: false`): two bare Fastify servers, one with
// the plugin and one with ours, are sent the same requests and must give the same status and the same CORS headers;
// then the Sluice server itself, on a route and a preflight.
import corsPlugin from "@fastify/cors";
import Fastify, { type FastifyInstance, type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountPreflightRoute, publicCors } from "../../src/http/cors.ts";
import { RATE_LIMIT_HEADERS } from "../../src/http/request-limits.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";

const EXPOSED = ["X-Request-Id", "X-Trace-Id", "Retry-After", ...RATE_LIMIT_HEADERS];
const ORIGIN = "https://wallet.example";

/** Every answer header CORS decides, and the status. */
function corsPart(response: { statusCode: number; headers: Record<string, unknown> }) {
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(
      ([name]) => name.startsWith("access-control-") || name === "vary" || name === "content-length",
    ),
  );
  return { status: response.statusCode, headers };
}

describe("CORS of the public API", () => {
  let plugin: FastifyInstance;
  let ours: FastifyInstance;

  beforeAll(async () => {
    plugin = Fastify();
    await plugin.register(corsPlugin, {
      origin: true,
      exposedHeaders: EXPOSED.join(", "),
      strictPreflight: false,
    });
    ours = Fastify();
    const cors = publicCors(EXPOSED);
    ours.addHook("onRequest", (request, reply, done) => {
      if (cors.apply(request, reply)) return;
      done();
    });
    mountPreflightRoute(ours as unknown as App);
    for (const app of [plugin, ours]) {
      app.get("/thing", async () => ({ ok: true }));
      app.post("/thing", async () => ({ ok: true }));
      app.get("/varied", async (_request, reply) =>
        reply.header("vary", "accept-encoding").send({ ok: true }),
      );
    }
  });
  afterAll(async () => {
    await plugin?.close();
    await ours?.close();
  });

  const requests: Array<[string, InjectOptions]> = [
    ["a GET with an Origin", { url: "/thing", headers: { origin: ORIGIN } }],
    ["a GET without an Origin", { url: "/thing" }],
    ["a POST with an Origin", { method: "POST", url: "/thing", headers: { origin: ORIGIN }, payload: {} }],
    ["a route setting its own Vary", { url: "/varied", headers: { origin: ORIGIN } }],
    ["an unknown path", { url: "/nowhere", headers: { origin: ORIGIN } }],
    [
      "a full preflight",
      {
        method: "OPTIONS",
        url: "/thing",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-api-key",
        },
      },
    ],
    [
      "a preflight without requested headers",
      {
        method: "OPTIONS",
        url: "/thing",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" },
      },
    ],
    ["an OPTIONS that is not a preflight", { method: "OPTIONS", url: "/thing" }],
    ["an OPTIONS on an unknown path", { method: "OPTIONS", url: "/nowhere", headers: { origin: ORIGIN } }],
  ];

  it.each(requests)("answers %s as @fastify/cors did", async (_name, request) => {
    const expected = corsPart(await plugin.inject(request));
    const actual = corsPart(await ours.inject(request));
    expect(actual).toEqual(expected);
  });

  describe("on the Sluice server", () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let app: App;

    beforeAll(async () => {
      database = await createTestDatabase("pglite");
      ({ app } = await createTestServer(database));
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it("reflects the origin, exposes the ids and limit headers, and answers a preflight with both ids", async () => {
      const answer = await app.inject({ url: "/api/v1/health", headers: { origin: ORIGIN } });
      expect(answer.headers["access-control-allow-origin"]).toBe(ORIGIN);
      expect(answer.headers.vary).toBe("Origin");
      expect(answer.headers["access-control-expose-headers"]).toBe(EXPOSED.join(", "));
      const preflight = await app.inject({
        method: "OPTIONS",
        url: "/api/v1/quote",
        headers: { origin: ORIGIN, "access-control-request-method": "POST", "x-trace-id": "t-1" },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers["access-control-allow-methods"]).toBe("GET,HEAD,POST");
      expect(preflight.headers["x-request-id"]).toEqual(expect.any(String));
      expect(preflight.headers["x-trace-id"]).toBe("t-1");
    });
  });
});

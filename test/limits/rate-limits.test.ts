// The request limits of the public API (issue 24, items 1 and 2), on both databases: a burst from one address is
// admitted up to its class's limit and the rest answer 429 RATE_LIMITED in the route's envelope with Retry-After and
// the RateLimit-* headers; an integrator's key has its own (higher) limit and is recorded on its orders; an unknown or
// revoked key answers 401; X-Forwarded-For names the client only behind a proxy TRUST_PROXY names; health, docs,
// metrics and a solver's authenticated calls are never limited. Clients are told apart by the injected request's
// `remoteAddress`. Admitted /quote requests carry an empty body: they answer 400 once past the limits, which is all a
// limit decides.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyRepository } from "../../src/api-keys/repository.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";
import { waitForFreshWindow } from "./windows.ts";

const QUOTES_PER_MINUTE = 30;
const READS_PER_SECOND = 5;
const SOLVER = "0x00000000000000000000000000000000000000aa";

describe.each(databaseKinds)("request limits (%s)", (kind) => {
  let database: Database;
  let app: App;
  let keys: ApiKeyRepository;
  let trusting: App;
  let sluice: Awaited<ReturnType<typeof createTestServer>>["sluice"];
  /** sluice_rate_limit_rejections_total of `app`, for one class and integrator. */
  const rejections = async (labels: { class: string; integrator: string }) => {
    const metric = await sluice.parts.metrics.rateLimitRejections.get();
    return (
      metric.values.find(
        (value) => value.labels.class === labels.class && value.labels.integrator === labels.integrator,
      )?.value ?? 0
    );
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    keys = new ApiKeyRepository(database.db);
    const deployment = unstartedDeployment(
      placeholderDeployment({
        solvers: [
          {
            id: "ext_polling",
            name: "Polling",
            endpoint: "http://127.0.0.1:9",
            filler: SOLVER,
            internal: false,
            sharedSecretEnv: "UNUSED",
          },
        ],
      }),
    );
    const env = {
      RATE_LIMIT_QUOTES_PER_MINUTE: String(QUOTES_PER_MINUTE),
      RATE_LIMIT_READS_PER_SECOND: String(READS_PER_SECOND),
    };
    ({ app, sluice } = await createTestServer(database, { deployment, env }));
    ({ app: trusting } = await createTestServer(database, {
      deployment,
      env: { ...env, TRUST_PROXY: "10.9.0.1, 10.8.0.0/16" },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await trusting?.close();
    await database?.close();
  });

  const quote = (client: string, headers: Record<string, string> = {}, on = app) =>
    on.inject({ method: "POST", url: "/api/v1/quote", remoteAddress: client, headers, payload: {} });
  const vaults = (client: string, headers: Record<string, string> = {}, on = app) =>
    on.inject({ method: "GET", url: "/api/v1/entities/vaults", remoteAddress: client, headers });
  const admitted = (responses: LightMyRequestResponse[]) => responses.filter((r) => r.statusCode !== 429);

  function expectLimitHeaders(response: LightMyRequestResponse, limit: number) {
    expect(response.headers["ratelimit-limit"]).toBe(String(limit));
    expect(Number(response.headers["ratelimit-remaining"])).toBeGreaterThanOrEqual(0);
    expect(Number(response.headers["ratelimit-reset"])).toBeGreaterThanOrEqual(1);
  }

  it("admits 30 ± 10 % of a burst of 200 anonymous /quote from one address at 30 a minute; the rest answer 429", async () => {
    await waitForFreshWindow(database, 60_000);
    const responses = await Promise.all(Array.from({ length: 200 }, () => quote("198.51.100.1")));
    const passed = admitted(responses);
    expect(passed.length).toBeGreaterThanOrEqual(QUOTES_PER_MINUTE * 0.9);
    expect(passed.length).toBeLessThanOrEqual(QUOTES_PER_MINUTE * 1.1);
    for (const response of passed) {
      expect(response.statusCode, response.body).toBe(400);
      expectLimitHeaders(response, QUOTES_PER_MINUTE);
    }
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(limited.length).toBe(200 - passed.length);
    for (const response of limited) {
      expectLimitHeaders(response, QUOTES_PER_MINUTE);
      expect(response.headers["ratelimit-remaining"]).toBe("0");
      const retryAfter = Number(response.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.json().error).toMatchObject({
        code: "RATE_LIMITED",
        status: 429,
        details: { limitClass: "quote", limit: QUOTES_PER_MINUTE, retryAfterSeconds: retryAfter },
      });
    }
    // Another address has its own count.
    expect((await quote("198.51.100.2")).statusCode).toBe(400);
    // Counted for the operator, by class and integrator.
    expect(await rejections({ class: "quote", integrator: "anonymous" })).toBe(limited.length);
  });

  it("lets a key with a higher limit pass more, counted apart from its address", async () => {
    const { key } = await keys.create({ name: `wallet-${kind}`, quotesPerMinute: 60 }, new Date());
    await waitForFreshWindow(database, 60_000);
    const anonymous = await Promise.all(Array.from({ length: 100 }, () => quote("198.51.100.3")));
    const keyed = await Promise.all(
      Array.from({ length: 100 }, () => quote("198.51.100.3", { "x-api-key": key })),
    );
    expect(admitted(anonymous).length).toBe(QUOTES_PER_MINUTE);
    expect(admitted(keyed).length).toBe(60);
    expectLimitHeaders(keyed[0]!, 60);
    expect(await rejections({ class: "quote", integrator: `wallet-${kind}` })).toBe(40);
  });

  it("answers an unknown or revoked key 401 in the route's envelope, never the anonymous tier", async () => {
    const unknown = await quote("198.51.100.4", { "x-api-key": "slk_not-a-key" });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
    const partner = await vaults("198.51.100.4", { "x-api-key": "slk_not-a-key" });
    expect(partner.statusCode).toBe(401);
    expect(partner.json()).toEqual({ errorCode: "anErrorOccurred", errorMessage: expect.any(String) });

    const { key } = await keys.create({ name: `revoked-${kind}` }, new Date());
    expect((await vaults("198.51.100.4", { "x-api-key": key })).statusCode).toBe(200);
    await keys.revoke(`revoked-${kind}`, new Date());
    expect((await vaults("198.51.100.4", { "x-api-key": key })).statusCode).toBe(401);
    expect((await quote("198.51.100.4", { "x-api-key": key })).statusCode).toBe(401);
  });

  it("limits reads per second, in the partner envelope on /entities, with the headers on every answer", async () => {
    await waitForFreshWindow(database, 1000, 700);
    const responses = await Promise.all(Array.from({ length: 12 }, () => vaults("198.51.100.5")));
    const passed = admitted(responses);
    expect(passed.length).toBe(READS_PER_SECOND);
    for (const response of responses) expectLimitHeaders(response, READS_PER_SECOND);
    const limited = responses.find((r) => r.statusCode === 429)!;
    expect(limited.headers["retry-after"]).toBe("1");
    expect(limited.json()).toEqual({
      errorCode: "anErrorOccurred",
      errorMessage: expect.stringContaining("read"),
    });
  });

  it("never limits health, docs, the document, metrics' pointer, or a solver's authenticated calls", async () => {
    await waitForFreshWindow(database, 1000, 700);
    for (const url of ["/api/v1/health", "/api/v1/openapi.json", "/metrics", "/api/v1/docs/"]) {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => app.inject({ method: "GET", url, remoteAddress: "198.51.100.6" })),
      );
      expect(
        responses.filter((r) => r.statusCode === 429),
        url,
      ).toEqual([]);
      expect(responses[0]!.headers["ratelimit-limit"], url).toBeUndefined();
    }
    const solverPoll = () =>
      app.inject({
        method: "GET",
        url: `/api/v1/orders?solverId=ext_polling&orderStatus=open`,
        remoteAddress: "198.51.100.6",
        headers: { "x-solver-id": "ext_polling", "x-rfq-shared-secret": "secret-ext_polling" },
      });
    const polls = await Promise.all(Array.from({ length: 20 }, solverPoll));
    expect(polls.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    // A wrong secret is no solver: limited as anyone (a burst of its own early in a window: the calls above may have
    // taken past the one the test started in).
    await waitForFreshWindow(database, 1000, 700);
    const wrong = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          method: "GET",
          url: `/api/v1/orders?solverId=ext_polling`,
          remoteAddress: "198.51.100.7",
          headers: { "x-solver-id": "ext_polling", "x-rfq-shared-secret": "wrong" },
        }),
      ),
    );
    expect(wrong.filter((r) => r.statusCode === 429).length).toBe(20 - READS_PER_SECOND);
  });

  it("takes the client from X-Forwarded-For only behind a proxy TRUST_PROXY names", async () => {
    await waitForFreshWindow(database, 1000, 700);
    // Through the trusted proxy: each forwarded client has its own count.
    const forwarded = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        vaults("10.9.0.1", { "x-forwarded-for": `203.0.113.${i + 1}` }, trusting),
      ),
    );
    expect(admitted(forwarded).length).toBe(10);
    const viaRange = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        vaults("10.8.3.4", { "x-forwarded-for": `203.0.113.${i + 50}` }, trusting),
      ),
    );
    expect(admitted(viaRange).length).toBe(10);
    // From anyone else the header is ignored: one address, one count.
    const spoofed = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        vaults("198.51.100.8", { "x-forwarded-for": `203.0.113.${i + 100}` }, trusting),
      ),
    );
    expect(admitted(spoofed).length).toBe(READS_PER_SECOND);
    // And a server without TRUST_PROXY ignores it whoever sends it.
    const untrusted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => vaults("10.9.0.1", { "x-forwarded-for": `203.0.113.${i + 150}` })),
    );
    expect(admitted(untrusted).length).toBe(READS_PER_SECOND);
  });
});

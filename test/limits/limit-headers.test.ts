// The RateLimit-* headers' values over windows, by a clock the test moves: the request limits (request-limits.ts) on a
// bare Fastify route, counted in memory. Each caller's counter key and limit text are made once and kept
// (anonymous-callers.ts, classes.ts allowancesOf): these check that what is kept still gives each caller its own count
// and limit, request after request and window after window.
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyDirectory } from "../../src/api-keys/directory.ts";
import { RequestLimits } from "../../src/http/request-limits.ts";
import type { App } from "../../src/http/route.ts";
import { RateLimitedError } from "../../src/limits/errors.ts";
import { MemoryWindowCounter } from "../../src/limits/window-counters.ts";
import { ManualClock } from "../support/clock.ts";

const READS_PER_SECOND = 4;
const KEY = "slk_test-key";

describe("RateLimit headers over windows", () => {
  // 100 ms into a second: the read class's window ends in 900 ms.
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 0, 100));
  const app = Fastify();

  beforeAll(async () => {
    const keys = {
      find: async (key: string) =>
        key === KEY ? { name: "wallet", quotesPerMinute: null, readsPerSecond: 6 } : undefined,
    } as unknown as ApiKeyDirectory;
    const counter = new MemoryWindowCounter(clock);
    new RequestLimits({
      anonymous: { quote: 30, read: READS_PER_SECOND },
      counters: { quote: counter, read: counter },
      keys,
    }).register(app as unknown as App);
    // The server's error table answers a refusal 429; this route only tells a refusal from anything else.
    app.setErrorHandler((error, _request, reply) =>
      reply.code(error instanceof RateLimitedError ? 429 : 500).send({ refused: String(error) }),
    );
    app.get("/read", { config: { limit: "read" } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const read = (address: string, headers: Record<string, string> = {}) =>
    app.inject({ url: "/read", remoteAddress: address, headers });
  const limitHeaders = (response: { headers: Record<string, unknown> }) => [
    response.headers["ratelimit-limit"],
    response.headers["ratelimit-remaining"],
    response.headers["ratelimit-reset"],
  ];

  it("counts each caller down in its window, refuses past the limit, and starts again in the next window", async () => {
    const first: unknown[][] = [];
    for (let i = 0; i < READS_PER_SECOND + 1; i++) first.push(limitHeaders(await read("203.0.113.1")));
    expect(first).toEqual([
      ["4", "3", "1"],
      ["4", "2", "1"],
      ["4", "1", "1"],
      ["4", "0", "1"],
      ["4", "0", "1"],
    ]);
    const refused = await read("203.0.113.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");

    // Another address, and the same address as an IPv4-mapped IPv6 one: the first its own count, the second the same.
    expect(limitHeaders(await read("203.0.113.2"))).toEqual(["4", "3", "1"]);
    expect((await read("::ffff:203.0.113.1")).statusCode).toBe(429);

    // A key: its own limit and count, whatever the address.
    expect(limitHeaders(await read("203.0.113.1", { "x-api-key": KEY }))).toEqual(["6", "5", "1"]);
    expect(limitHeaders(await read("203.0.113.2", { "x-api-key": KEY }))).toEqual(["6", "4", "1"]);

    clock.advance(900);
    const next = await read("203.0.113.1");
    expect(next.statusCode).toBe(200);
    expect(limitHeaders(next)).toEqual(["4", "3", "1"]);
    expect(limitHeaders(await read("203.0.113.1", { "x-api-key": KEY }))).toEqual(["6", "5", "1"]);
  });
});

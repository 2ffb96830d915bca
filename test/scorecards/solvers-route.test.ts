// GET /api/v1/solvers and /solvers/{id} over stored rounds and orders, on PGlite and PostgreSQL: every configured
// solver (disabled ones too) with its logo, cooldown fields and scorecard; the hour, day and week windows; answers
// at most 1 s stale; 404 SOLVER_NOT_FOUND; every answer valid against the declared response schemas.
import { randomUUID } from "node:crypto";
import { createSluiceClient, SluiceApiError } from "@sluice/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import type { SolverAnswerRow } from "../../src/rounds/store.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { SolverScorecardSchema, SolversResponseSchema } from "../../src/scorecards/schemas.ts";
import { QuoteRepository } from "../../src/swap/repository.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";

const NOW = Date.parse("2026-11-20T12:30:20.000Z");
const solver = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Solver ${id}`,
  endpoint: "http://127.0.0.1:9",
  filler: "0x00000000000000000000000000000000000000f1",
  internal: false,
  sharedSecretEnv: "UNUSED_SECRET",
  ...extra,
});

describe.each(databaseKinds)("GET /solvers (%s)", (kind) => {
  let database: Database;
  let app: App;
  let close: () => Promise<void>;
  const clock = new ManualClock(NOW);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const deployment = placeholderDeployment({
      solvers: [
        solver("ext_alpha", { logo: "sluice-alpha" }),
        solver("ext_beta"),
        solver("ext_off", { enabled: false }),
      ],
    });
    const server = await createTestServer(database, { clock, deployment: unstartedDeployment(deployment) });
    app = server.app;
    close = () => server.sluice.stop();
  });
  afterAll(async () => {
    await close?.();
    await database?.close();
  });

  /** One /quote round at `at`: alpha quotes (rank 0) in `latencyMs`, beta times out. */
  async function round(at: Date, latencyMs: number) {
    const requestId = randomUUID();
    const answer = (solverId: string, rest: Partial<SolverAnswerRow>): SolverAnswerRow => ({
      requestId,
      round: "quote",
      solverId,
      quoteId: randomUUID(),
      outcome: "quoted",
      reason: null,
      detail: null,
      latencyMs,
      amountOut: "1000000",
      legs: 1,
      createdAt: at,
      ...rest,
    });
    const alpha = answer("ext_alpha", {});
    const beta = answer("ext_beta", {
      outcome: "rejected",
      reason: "timeout",
      amountOut: null,
      latencyMs: 1000,
    });
    await new QuoteRepository(database).saveQuoteRounds([
      {
        request: {
          requestId,
          swapper: "0x0000000000000000000000000000000000000005",
          tokenIn: "0x0000000000000000000000000000000000000001",
          tokenOut: "0x0000000000000000000000000000000000000002",
          amount: "1",
          outputs: [],
          routingPreference: "BEST_PRICE",
          createdAt: at,
        },
        answers: [alpha, beta],
        entries: [
          {
            quoteId: alpha.quoteId,
            requestId,
            solverId: "ext_alpha",
            filler: "0x00000000000000000000000000000000000000f1",
            rank: 0,
            tokenIn: "0x0000000000000000000000000000000000000001",
            amountIn: "1",
            tokenOut: "0x0000000000000000000000000000000000000002",
            amountOut: "1000000",
            outputs: [],
            deadline: 1_900_000_000,
            nonce: "1",
            protocol: "0x0000000000000000000000000000000000000004",
            createdAt: at,
          },
        ],
      },
    ]);
    return alpha.quoteId;
  }

  async function get(url: string) {
    const response = await app.inject({ method: "GET", url });
    return { status: response.statusCode, body: response.json() };
  }

  it("lists every configured solver with its scorecard over the hour, day and week", async () => {
    // Now, 2 hours ago (in the day, not the hour) and 3 days ago (in the week only); 8 days ago counts nowhere.
    const quoteId = await round(new Date(NOW - 5_000), 40);
    await round(new Date(NOW - 2 * 3600_000), 80);
    await round(new Date(NOW - 3 * 86400_000), 80);
    await round(new Date(NOW - 8 * 86400_000), 80);
    await new OrderRepository(database, new OrderEvents(), new OrderStats()).createOnce(
      newOrder("ext_alpha", new Date(NOW - 1_000), { quoteId }),
    );

    const { status, body } = await get("/api/v1/solvers");
    expect(status).toBe(200);
    const parsed = SolversResponseSchema.parse(body);
    expect(parsed.solvers.map((s) => [s.id, s.enabled])).toEqual([
      ["ext_alpha", true],
      ["ext_beta", true],
      ["ext_off", false],
    ]);
    const [alpha, beta, off] = parsed.solvers;
    expect(alpha!.metadata.logoUrl).toMatch(/\/api\/v1\/solver-logos\/sluice-alpha-[0-9a-f]+\.png$/);
    expect(alpha!.cooldownUntil).toBeNull();
    expect(alpha!.cooldownReason).toBeNull();
    const { hour, day, week } = alpha!.scorecard;
    expect([hour.auctions.offered, day.auctions.offered, week.auctions.offered]).toEqual([1, 2, 3]);
    expect([hour.wins.soft, day.wins.soft, week.wins.soft]).toEqual([1, 2, 3]);
    expect(hour.orders).toEqual({ assigned: 1, filled: 0, expired: 0 });
    // 40 ms lies in [38.055, 45.255): reported as the bucket's geometric midpoint, within 9.1 %.
    expect(hour.answerLatencyMs.p50).toBeCloseTo(Math.sqrt(38.055 * 45.255), 2);
    expect(Math.abs(hour.answerLatencyMs.p50! / 40 - 1)).toBeLessThan(0.091);
    expect(day.answerLatencyMs.p99).toBeGreaterThan(72);
    expect(hour.fillLatencyMs).toEqual({ p50: null, p99: null });
    expect(hour.priceImprovement).toEqual({ averageBps: null, filledOrders: 0 });
    expect(hour.from).toBe("2026-11-20T11:31:00.000Z");
    expect(day.from).toBe("2026-11-19T13:00:00.000Z");
    expect(week.from).toBe("2026-11-13T13:00:00.000Z");
    expect(beta!.scorecard.week.auctions.rejected.timeout).toBe(3);
    // A timeout has no answer latency.
    expect(beta!.scorecard.week.answerLatencyMs).toEqual({ p50: null, p99: null });
    expect(off!.scorecard.week.auctions.offered).toBe(0);
  });

  it("answers from a snapshot at most 1 s old", async () => {
    const before = (await get("/api/v1/solvers/ext_alpha")).body;
    await round(new Date(NOW), 40);
    // Within the second: the same snapshot.
    clock.advance(999);
    expect((await get("/api/v1/solvers/ext_alpha")).body).toEqual(before);
    clock.advance(1);
    const after = SolverScorecardSchema.parse((await get("/api/v1/solvers/ext_alpha")).body);
    expect(after.scorecard.hour.auctions.offered).toBe(before.scorecard.hour.auctions.offered + 1);
  });

  it("answers 404 SOLVER_NOT_FOUND for an id that is not configured", async () => {
    const { status, body } = await get("/api/v1/solvers/ext_nobody");
    expect(status).toBe(404);
    expect(body.error.code).toBe("SOLVER_NOT_FOUND");
  });

  it("is what the client's solvers() and solver(id) return", async () => {
    // The client's fetch answered by the server in process.
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const answer = await app.inject({
        method: (init?.method ?? "GET") as "GET",
        url: url.pathname + url.search,
      });
      return new Response(answer.body, {
        status: answer.statusCode,
        headers: answer.headers as Record<string, string>,
      });
    };
    const client = createSluiceClient({ apiUrl: "http://sluice.test/api/v1", fetch });
    const listed = await client.solvers();
    expect(listed).toEqual((await get("/api/v1/solvers")).body);
    expect((await client.solver("ext_beta")).id).toBe("ext_beta");
    const failure = await client.solver("ext_nobody").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SluiceApiError);
    expect((failure as SluiceApiError).code).toBe("SOLVER_NOT_FOUND");
  });
});

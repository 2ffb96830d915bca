// Load shedding of /quote (issue 24, item 3) and the integrator on orders (item 1), on a chain with real solvers: 50
// concurrent /quote against a slow solver with a budget of 10 rounds in flight admit 10, and the 40 over budget are
// answered 503 OVERLOADED with Retry-After at once — while the 10 are still held at the solver, not after queueing
// behind them — and /entities/vaults keeps answering meanwhile. The answers' latency is printed; what "at once" costs
// is measured by the bench (bench/suites/limits.ts). An order posted with an API key records its integrator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiKeyRepository } from "../../src/api-keys/repository.ts";
import type { Sluice } from "../../src/app/sluice.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { quoteRequestBody, quotingBehaviour, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();
const BUDGET = 10;

describe("load shedding of /quote", () => {
  let database: Database;
  let app: App;
  let sluice: Sluice;
  let solver: ScriptedSolver;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    solver = await startScriptedSolver(quotingBehaviour(chain.core.executors[0]!));
    ({ app, sluice } = await createSwapTestApp(chain, database, {
      clock,
      solvers: [{ id: "ext_slow", endpoint: solver.url, maxConcurrentRequests: 100 }],
      deployment: { solverTimeoutMs: 10_000, solverClientShare: 1 },
      env: { QUOTE_MAX_IN_FLIGHT: String(BUDGET) },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await solver?.close();
    await database?.close();
  });
  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
  });

  const quote = (client: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: "POST",
      url: "/api/v1/quote",
      remoteAddress: client,
      headers,
      payload: quoteRequestBody(chain, { amount: 10n ** 20n, swapper: chain.accounts.swapper.address }),
    });

  it("answers the rounds over budget 503 OVERLOADED at once while the admitted ones are held; reads go on", async () => {
    const holds = Array.from({ length: BUDGET }, () => solver.holdNext());
    const started = performance.now();
    const settledAt: number[] = [];
    const requests = Array.from({ length: 50 }, (_, i) =>
      quote(`10.7.0.${i + 1}`).then((response) => {
        settledAt[i] = performance.now() - started;
        return response;
      }),
    );
    await Promise.all(holds.map((hold) => hold.reached));
    // Every round over budget is answered while the admitted ones are still held at the solver.
    const refused = (await Promise.all(requests.map((r) => Promise.race([r, held()])))).filter(
      (r) => r !== "held",
    );
    expect(refused).toHaveLength(50 - BUDGET);
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers["retry-after"]).toBe("1");
      expect(response.json().error).toMatchObject({
        code: "OVERLOADED",
        status: 503,
        details: { reason: "quote_rounds", retryAfterSeconds: 1 },
      });
    }
    const vaults = await app.inject({
      method: "GET",
      url: "/api/v1/entities/vaults",
      remoteAddress: "10.7.1.1",
    });
    expect(vaults.statusCode).toBe(200);
    const refusedLatencies = settledAt.filter((ms) => ms !== undefined).sort((a, b) => a - b);
    process.stdout.write(
      `[shedding] ${refused.length} refused, slowest after ${refusedLatencies.at(-1)!.toFixed(1)} ms\n`,
    );

    for (const hold of holds) hold.release();
    const answered = await Promise.all(requests);
    expect(answered.filter((r) => r.statusCode === 200)).toHaveLength(BUDGET);
    // The budget is free again.
    expect((await quote("10.7.2.1")).statusCode).toBe(200);
  });

  it("records on an order the integrator whose key placed it, and none for the anonymous tier", async () => {
    const { key } = await new ApiKeyRepository(database.db).create({ name: "acme-wallet" }, new Date());
    const orders = new OrderRepository(database, sluice.parts.orderEvents, new OrderStats());
    for (const [headers, integrator] of [
      [{ "x-api-key": key }, "acme-wallet"],
      [{}, null],
    ] as const) {
      const quoted = await quote("10.7.3.1", headers);
      expect(quoted.statusCode, quoted.body).toBe(200);
      const entry = quoted.json().quotes[0];
      const signature = await signRequest(
        chain.accounts.swapper,
        { chainId: chain.chainId, reactor: chain.core.reactor },
        requestFromSignatureData(entry.signatureData.value),
      );
      const posted = await app.inject({
        method: "POST",
        url: "/api/v1/order",
        remoteAddress: "10.7.3.1",
        headers,
        payload: { quote: entry.quote, signature },
      });
      expect(posted.statusCode, posted.body).toBe(200);
      const row = await orders.findById(posted.json().orderId);
      expect(row?.integrator).toBe(integrator);
    }
  });
});

/** Resolves after the requests in flight had every chance to answer without the solver: a macrotask later, twice. */
function held(): Promise<"held"> {
  return new Promise((resolve) => setTimeout(() => setTimeout(() => resolve("held"), 50), 0));
}

// Solver capacity under load (issues 21 and 26): a round that finds a solver's concurrency cap full leaves it out,
// and when no asked solver quotes because of that, /quote and /order answer a retryable 503 SOLVERS_BUSY with
// Retry-After — never 404 "no quotes" or 409 "re-quote"; `solversAsked` counts the solvers actually asked. One
// client holds at most its share of a solver's slots, so its flood never keeps the solver out of another client's
// rounds. Clients are told apart by address (`remoteAddress` of the injected request is Fastify's `request.ip`).
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { eventually, settledWithin } from "../support/gates.ts";
import { quoteRequestBody, quotingBehaviour, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();
/** Long enough that held requests stay in flight while the test asks again; Retry-After is its seconds. */
const SOLVER_TIMEOUT_MS = 10_000;

describe("solver capacity", () => {
  let database: Database;
  let app: App;
  let capped: ScriptedSolver;
  let decliner: ScriptedSolver;
  let shared: ScriptedSolver;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const filler = chain.core.executors[0]!;
    capped = await startScriptedSolver(quotingBehaviour(filler));
    decliner = await startScriptedSolver({ kind: "decline" });
    shared = await startScriptedSolver(quotingBehaviour(filler));
    ({ app } = await createSwapTestApp(chain, database, {
      clock,
      solvers: [
        { id: "ext_capped", endpoint: capped.url, maxConcurrentRequests: 2 },
        { id: "ext_decline", endpoint: decliner.url },
        { id: "ext_shared", endpoint: shared.url, maxConcurrentRequests: 8 },
      ],
      deployment: { solverTimeoutMs: SOLVER_TIMEOUT_MS, solverClientShare: 0.5 },
    }));
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([capped?.close(), decliner?.close(), shared?.close()]);
    await database?.close();
  });
  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    capped.setBehaviour(quotingBehaviour(chain.core.executors[0]!));
  });

  const quote = (client: string, solverIds?: string[]) =>
    app.inject({
      method: "POST",
      url: "/api/v1/quote",
      remoteAddress: client,
      payload: {
        ...quoteRequestBody(chain, { amount: 10n ** 20n, swapper: chain.accounts.swapper.address }),
        ...(solverIds ? { solverIds } : {}),
      },
    });

  async function signedEntry(client: string, solverIds: string[]) {
    const response = await quote(client, solverIds);
    expect(response.statusCode, response.body).toBe(200);
    const entry = response.json().quotes[0];
    const signature = await signRequest(
      chain.accounts.swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    return { quote: entry.quote, signature };
  }

  const order = (client: string, body: { quote: unknown; signature: string }) =>
    app.inject({ method: "POST", url: "/api/v1/order", remoteAddress: client, payload: body });

  /** Takes both of ext_capped's slots: one /quote each from two clients (each may hold one), held at the solver. */
  async function fillCappedSolver(): Promise<{ release(): Promise<LightMyRequestResponse[]> }> {
    const holds = [capped.holdNext(), capped.holdNext()];
    const pending = [quote("10.0.1.1", ["ext_capped"]), quote("10.0.1.2", ["ext_capped"])];
    await Promise.all(holds.map((hold) => hold.reached));
    return {
      async release() {
        for (const hold of holds) hold.release();
        return Promise.all(pending);
      },
    };
  }

  function expectBusy(
    response: LightMyRequestResponse,
    facts: { solversAsked: number; solversBusy: number },
  ) {
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers["retry-after"]).toBe(String(SOLVER_TIMEOUT_MS / 1000));
    expect(response.json().error).toMatchObject({
      code: "SOLVERS_BUSY",
      status: 503,
      details: { ...facts, retryAfterSeconds: SOLVER_TIMEOUT_MS / 1000 },
    });
  }

  it("answers /order and /quote 503 SOLVERS_BUSY with Retry-After while the cap is full, and the quote becomes an order after", async () => {
    const entry = await signedEntry("10.0.0.1", ["ext_capped"]);
    const full = await fillCappedSolver();
    try {
      expectBusy(await order("10.0.0.1", entry), { solversAsked: 0, solversBusy: 1 });
      expectBusy(await quote("10.0.0.3", ["ext_capped"]), { solversAsked: 0, solversBusy: 1 });
    } finally {
      const released = await full.release();
      expect(released.map((response) => response.statusCode)).toEqual([200, 200]);
    }
    // Retried once a slot is free: the same quote becomes an order.
    const retried = await order("10.0.0.1", entry);
    expect(retried.statusCode, retried.body).toBe(200);
  });

  it("counts only the solvers it asked: busy when one left out might honor the quote, 409 once every one declined", async () => {
    const entry = await signedEntry("10.0.0.1", ["ext_capped", "ext_decline"]);
    const full = await fillCappedSolver();
    try {
      // ext_decline was asked and declined; ext_capped, which quoted it, was left out.
      expectBusy(await order("10.0.0.1", entry), { solversAsked: 1, solversBusy: 1 });
      expectBusy(await quote("10.0.0.3", ["ext_capped", "ext_decline"]), { solversAsked: 1, solversBusy: 1 });
    } finally {
      await full.release();
    }
    capped.setBehaviour({ kind: "decline" });
    const declined = await order("10.0.0.1", entry);
    expect(declined.statusCode, declined.body).toBe(409);
    expect(declined.json().error).toMatchObject({
      code: "QUOTE_UNAVAILABLE",
      details: { solversAsked: 2 },
    });
    expect(declined.headers["retry-after"]).toBeUndefined();
    const none = await quote("10.0.0.3", ["ext_capped", "ext_decline"]);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe("NO_QUOTES");
  });

  it("answers a re-post of a quote whose order is being created with that order, even while the cap is full", async () => {
    const entry = await signedEntry("10.0.0.1", ["ext_capped"]);
    // The first post's hard round holds one of ext_capped's two slots, another client's /quote the other.
    const hardRound = capped.holdNext();
    const first = order("10.0.0.1", entry);
    await hardRound.reached;
    const quoteHold = capped.holdNext();
    const otherQuote = quote("10.0.1.9", ["ext_capped"]);
    await quoteHold.reached;
    // The same signature in another accepted encoding (v as 0/1): not an identical post, so it waits for the first.
    const v = Number.parseInt(entry.signature.slice(-2), 16) - 27;
    const repost = order("10.0.0.1", { ...entry, signature: `${entry.signature.slice(0, -2)}0${v}` });
    // Both slots stay taken for a wide gap: a re-post that ran its own round would be left out and answered in it.
    expect(await settledWithin(repost, 1000)).toBe(false);
    hardRound.release();
    quoteHold.release();
    const [created, reposted] = await Promise.all([first, repost]);
    expect(created.statusCode, created.body).toBe(200);
    expect(reposted.statusCode, reposted.body).toBe(200);
    expect(reposted.json().orderId).toBe(created.json().orderId);
    expect((await otherQuote).statusCode).toBe(200);
  });

  // Issue 26 item 5: one client kept a solver's 32 slots busy with `solverIds=[it]` and so removed it from 44 % of
  // honest auctions.
  it("keeps one client's flood at one solver from costing another client that solver's bids", async () => {
    const flooder = "10.0.6.6";
    shared.setBehaviour({ kind: "stall" });
    const before = shared.requests.length;
    const flood = Array.from({ length: 20 }, () => quote(flooder, ["ext_shared"]));
    let answered = 0;
    for (const request of flood) void request.then(() => answered++);
    try {
      // Every round of the flood has either reached the solver (and stalls there) or been answered.
      await eventually(
        () => shared.requests.length - before + answered === flood.length,
        "the flood has taken what it can",
      );
      shared.setBehaviour(quotingBehaviour(chain.core.executors[0]!));
      // Three other clients at once, as wallets quote: each gets ext_shared's bid.
      const honest = await Promise.all(["10.0.0.7", "10.0.0.8", "10.0.0.9"].map((client) => quote(client)));
      for (const response of honest) {
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().quotes.map((entry: { solver: { id: string } }) => entry.solver.id)).toContain(
          "ext_shared",
        );
      }
      // The flooder holds its share (half of 8); its other rounds are told to retry.
      expect(shared.requests.length - before - honest.length).toBe(4);
      expectBusy(await quote(flooder, ["ext_shared"]), { solversAsked: 0, solversBusy: 1 });
    } finally {
      shared.releaseStalled();
      shared.setBehaviour(quotingBehaviour(chain.core.executors[0]!));
      await Promise.all(flood);
    }
  });
});

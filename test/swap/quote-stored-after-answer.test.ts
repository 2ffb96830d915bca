// POST /quote answers before its round is stored, over HTTP on PGlite and PostgreSQL: the round's write is held
// back here (the database's statement for it waits on a gate), and POST /order of one of its quotes — on this
// server or on a second one sharing the database — waits for it; shutdown waits for it; a write that fails
// leaves quotes that cannot become orders.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { solverAnswers } from "../../src/rounds/tables.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { SAVE_QUOTE_ROUNDS_SQL } from "../../src/swap/quote-round-statement.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { quoteRequests, quotes } from "../../src/swap/tables.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { settledWithin } from "../support/gates.ts";
import { quoteRequestBody, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const ONE_RWA = 10n ** 18n;
const chain = useTestChain();

/** A database whose round writes wait until the test lets them through, or fail when told to. */
function gatedDatabase(database: Database) {
  let release: (() => void) | undefined;
  let held: Promise<void> = Promise.resolve();
  const state = {
    failRounds: false,
    roundsSeen: 0,
    hold() {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release() {
      release?.();
    },
    database: {
      ...database,
      // The round's statements are written together (its answers and the scorecards' counts in one transaction).
      async writeTogether(statements) {
        if (statements.some((statement) => statement.text === SAVE_QUOTE_ROUNDS_SQL)) {
          state.roundsSeen++;
          await held;
          if (state.failRounds) throw new Error("round storage unavailable");
        }
        return database.writeTogether(statements);
      },
    } as Database,
  };
  return state;
}

describe.each(databaseKinds)("a /quote round stored after the answer (%s)", (kind) => {
  let database: Database;
  let gated: ReturnType<typeof gatedDatabase>;
  let app: App;
  let replica: App;
  let clock: ManualClock;
  let alpha: ScriptedSolver;
  let beta: ScriptedSolver;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    gated = gatedDatabase(database);
    const honest = (marginBps: bigint) => ({
      kind: "quote" as const,
      filler: chain.core.executors[0]!,
      amountOut: (r: SolverQuoteRequest) => {
        const leg = r.adapters[0]!;
        const gross =
          (BigInt(r.amount) * BigInt(leg.maxRate) * 10n ** BigInt(leg.assetDecimals)) /
          (10n ** 18n * ONE_RWA);
        return (gross * (10_000n - marginBps)) / 10_000n;
      },
    });
    alpha = await startScriptedSolver(honest(10n));
    beta = await startScriptedSolver(honest(30n));
    clock = new ManualClock(Date.now());
    const solvers = [
      { id: "ext_alpha", endpoint: alpha.url },
      { id: "ext_beta", endpoint: beta.url },
    ];
    ({ app } = await createSwapTestApp(chain, gated.database, { clock, solvers }));
    // A second replica on the same database; its own rounds are not held.
    ({ app: replica } = await createSwapTestApp(chain, database, { clock, solvers }));
  });
  afterAll(async () => {
    gated?.release();
    await app?.close();
    await replica?.close();
    await Promise.all([alpha?.close(), beta?.close()]);
    await database?.close();
  });

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    gated.failRounds = false;
    gated.hold();
  });

  async function quoteAndSign() {
    const response = await app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 1000n * ONE_RWA, swapper: chain.accounts.swapper.address }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = QuoteResponseSchema.parse(response.json());
    const entry = body.quotes[0]!;
    const signature = await signRequest(
      chain.accounts.swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    return { body, entry, signature };
  }

  const storedRound = async (requestId: string) => ({
    requests: await database.db.select().from(quoteRequests).where(eq(quoteRequests.requestId, requestId)),
    answers: await database.db.select().from(solverAnswers).where(eq(solverAnswers.requestId, requestId)),
    entries: await database.db.select().from(quotes).where(eq(quotes.requestId, requestId)),
  });

  it("answers before the round is stored; POST /order of its quote waits for the write", async () => {
    const { body, entry, signature } = await quoteAndSign();
    await expect.poll(() => gated.roundsSeen).toBeGreaterThan(0);
    expect((await storedRound(body.requestId)).requests).toHaveLength(0);

    const order = app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    expect(await settledWithin(order, 100)).toBe(false);
    gated.release();
    const response = await order;
    expect(response.statusCode, response.body).toBe(200);
    const stored = await storedRound(body.requestId);
    expect(stored.requests).toHaveLength(1);
    expect(stored.answers.map((a) => [a.solverId, a.outcome]).sort()).toEqual([
      ["ext_alpha", "quoted"],
      ["ext_beta", "quoted"],
    ]);
    expect(stored.entries.map((e) => e.quoteId).sort()).toEqual(
      body.quotes.map((q) => q.quote.quoteId).sort(),
    );
  });

  it("lets another replica find a quote answered here moments ago once it is stored", async () => {
    const { body, entry, signature } = await quoteAndSign();
    const order = replica.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    setTimeout(() => gated.release(), 150);
    const response = await order;
    expect(response.statusCode, response.body).toBe(200);
    expect((await storedRound(body.requestId)).entries).toHaveLength(2);
  });

  it("answers 404 for the quotes of a round whose write failed", async () => {
    gated.failRounds = true;
    const { body, entry, signature } = await quoteAndSign();
    gated.release();
    const response = await app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("QUOTE_NOT_FOUND");
    expect((await storedRound(body.requestId)).requests).toHaveLength(0);
  });

  it("stores the rounds still pending before the server finishes closing", async () => {
    // Its own server, so closing it leaves the others to the remaining tests.
    const own = await createSwapTestApp(chain, gated.database, {
      clock,
      solvers: [{ id: "ext_alpha", endpoint: alpha.url }],
    });
    const response = await own.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 1000n * ONE_RWA, swapper: chain.accounts.swapper.address }),
    });
    expect(response.statusCode, response.body).toBe(200);
    // The listeners' stop, as Sluice's stop() runs it: the server closes, then the answered rounds are written.
    const closed = Promise.resolve(own.sluice.steps.find((step) => step.name === "HTTP listeners")!.stop());
    expect(await settledWithin(closed, 100)).toBe(false);
    gated.release();
    await closed;
    expect((await storedRound(response.json().requestId)).entries).toHaveLength(1);
  });
});

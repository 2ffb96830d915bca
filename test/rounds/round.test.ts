// One auction round (src/rounds/round.ts), the one both POST /quote and the POST /order hard round run: every solver
// eligible now is asked once (with the caller's request id and the quote id it picks), the answers come back ranked
// best first and as the rows to store, and the fade breaker is told of the round. The rows of a round are stored with
// what they add to the scorecards in one transaction (RoundStore, Database.writeTogether), all or nothing.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { Market, RoundAnswer } from "../../src/market/market.ts";
import { type RoundCall, type RoundTerms, runRound } from "../../src/rounds/round.ts";
import { RoundStore, type SolverAnswerRow } from "../../src/rounds/store.ts";
import { solverAnswers } from "../../src/rounds/tables.ts";
import { ANSWER_COUNT_COLUMNS, type AnswerStatsDelta } from "../../src/scorecards/answer-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { quotingBehaviour } from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

describe("an auction round", () => {
  let database: Database;
  let swap: SwapTestApp;
  let market: Market;
  const solvers: Record<string, ScriptedSolver> = {};
  const observed: Array<{ swapper: string; answers: readonly RoundAnswer[]; at: Date }> = [];
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const filler = chain.core.executors[0]!;
    solvers.low = await startScriptedSolver(quotingBehaviour(filler));
    solvers.high = await startScriptedSolver({
      kind: "quote",
      filler,
      amountOut: (request) => (BigInt(request.amount) * 99n) / 100n / 10n ** 12n,
    });
    solvers.decline = await startScriptedSolver({ kind: "decline" });
    solvers.broken = await startScriptedSolver({ kind: "status", status: 500 });
    swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: Object.entries(solvers).map(([id, solver]) => ({ id: `ext_${id}`, endpoint: solver.url })),
    });
    // The round's observer is the fade breaker's failure count in the service; here it records what it is told.
    market = { ...swap.runtime.context, rounds: { observed: (round) => observed.push(round) } };
  });
  afterAll(async () => {
    await swap?.close();
    await Promise.all(Object.values(solvers).map((solver) => solver.close()));
    await database?.close();
  });
  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    await swap.syncHead();
    observed.length = 0;
    for (const solver of Object.values(solvers)) solver.requests.length = 0;
  });

  // As the quote terms hold it (the request schema lowercases addresses).
  const swapper = () => chain.accounts.swapper.address.toLowerCase() as Address;

  function terms(): RoundTerms {
    const { deployment } = market;
    return {
      tokenIn: deployment.inputTokens[0]!,
      tokenOut: deployment.outputTokens[0]!, // tUSD
      amount: 10n ** 20n,
      swapper: swapper(),
      outputCount: 1,
    };
  }

  function call(overrides: Partial<RoundCall>): RoundCall {
    return {
      kind: "quote",
      requestId: randomUUID(),
      terms: terms(),
      solverIds: undefined,
      quoteIdFor: () => randomUUID(),
      client: "test-client",
      ...overrides,
    };
  }

  it("asks every eligible solver once and ranks the answers best first, as rows and to the fade breaker", async () => {
    const quoteIds = new Map<string, string>();
    const request = call({
      quoteIdFor: (solverId) => {
        const id = randomUUID();
        quoteIds.set(solverId, id);
        return id;
      },
    });
    const round = await runRound(market, request);

    for (const [id, solver] of Object.entries(solvers)) {
      expect(solver.requests.map((r) => r.body)).toMatchObject([
        {
          requestId: request.requestId,
          quoteId: quoteIds.get(`ext_${id}`),
          amount: (10n ** 20n).toString(),
          numOutputs: 1,
          swapper: swapper(),
        },
      ]);
    }
    expect(round.eligible).toBe(4);
    expect(round.busy).toEqual([]);
    expect(round.inventoryBlock).toBe(await chain.publicClient.getBlockNumber());
    expect(round.at).toEqual(clock.now());
    expect(round.ranked.map((result) => result.participant.solver.id)).toEqual(["ext_high", "ext_low"]);
    const byId = Object.fromEntries(round.answers.map((row) => [row.solverId, row]));
    expect(round.answers).toHaveLength(4);
    expect(byId.ext_high).toMatchObject({
      requestId: request.requestId,
      round: "quote",
      quoteId: quoteIds.get("ext_high"),
      outcome: "quoted",
      amountOut: round.ranked[0]!.outcome.amountOut.toString(),
      createdAt: round.at,
    });
    expect(byId.ext_decline).toMatchObject({ outcome: "declined", amountOut: null });
    expect(byId.ext_broken).toMatchObject({ outcome: "rejected", reason: "http_status" });
    for (const row of round.answers) {
      expect(row.legs).toBeGreaterThan(0);
      expect(row.offeredLegs).toHaveLength(row.legs);
    }
    expect(observed).toEqual([
      {
        swapper: swapper(),
        at: round.at,
        answers: expect.arrayContaining([
          { solverId: "ext_high", outcome: "quoted" },
          { solverId: "ext_decline", outcome: "declined" },
          { solverId: "ext_broken", outcome: "rejected", reason: "http_status" },
        ]),
      },
    ]);
  });

  it("runs an order's hard round among the solvers the quote allowed, under the quote's id", async () => {
    const quoteId = randomUUID();
    const round = await runRound(
      market,
      call({ kind: "order", solverIds: ["ext_low", "ext_decline"], quoteIdFor: () => quoteId }),
    );
    expect(solvers.high!.requests).toEqual([]);
    expect(solvers.broken!.requests).toEqual([]);
    expect(solvers.low!.requests.map((r) => r.body.quoteId)).toEqual([quoteId]);
    expect(round.answers.map((row) => [row.solverId, row.round, row.quoteId]).sort()).toEqual([
      ["ext_decline", "order", quoteId],
      ["ext_low", "order", quoteId],
    ]);
    expect(round.ranked.map((result) => result.participant.solver.id)).toEqual(["ext_low"]);
  });

  it("asks nobody when no solver is eligible, and tells the fade breaker nothing", async () => {
    const round = await runRound(market, call({ solverIds: ["ext_unknown"] }));
    expect(round).toMatchObject({ eligible: 0, results: [], busy: [], ranked: [], answers: [] });
    for (const solver of Object.values(solvers)) expect(solver.requests).toEqual([]);
    expect(observed).toEqual([]);
  });
});

describe.each(databaseKinds)("a round's rows (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  function answer(requestId: string, solverId: string, amountOut: string | null): SolverAnswerRow {
    return {
      requestId,
      round: "order",
      solverId,
      quoteId: randomUUID(),
      outcome: amountOut ? "quoted" : "declined",
      reason: null,
      detail: null,
      latencyMs: 12,
      amountOut,
      legs: 1,
      offeredLegs: [{ adapter: "0x0000000000000000000000000000000000000001", maxAssets: "1", maxRate: "1" }],
      createdAt: new Date("2026-03-01T10:15:30Z"),
    };
  }

  async function pendingDeltas(): Promise<AnswerStatsDelta[]> {
    const rows = await database.query<{ stats: AnswerStatsDelta[] | string }>(
      "select stats from solver_answer_stats_pending order by id",
    );
    return rows.flatMap((row) => (typeof row.stats === "string" ? JSON.parse(row.stats) : row.stats));
  }

  it("stores a hard round's answers with what they and its winner add to the scorecards", async () => {
    const requestId = randomUUID();
    const before = (await pendingDeltas()).length;
    await new RoundStore(database).saveHardRound(
      [answer(requestId, "rounds_a", "100"), answer(requestId, "rounds_b", null)],
      "rounds_a",
    );
    const stored = await database.db
      .select()
      .from(solverAnswers)
      .where(eq(solverAnswers.requestId, requestId));
    expect(stored.map((row) => [row.solverId, row.outcome]).sort()).toEqual([
      ["rounds_a", "quoted"],
      ["rounds_b", "declined"],
    ]);
    const deltas = (await pendingDeltas()).slice(before);
    const column = (name: (typeof ANSWER_COUNT_COLUMNS)[number]) => ANSWER_COUNT_COLUMNS.indexOf(name);
    const of = (solverId: string) => deltas.find((delta) => delta.s === solverId)!;
    expect(deltas.map((delta) => delta.s)).toEqual(["rounds_a", "rounds_b"]);
    expect(of("rounds_a").m).toBe("2026-03-01T10:15:00.000Z");
    expect(of("rounds_a").c[column("offered")]).toBe(1);
    expect(of("rounds_a").c[column("quoted")]).toBe(1);
    expect(of("rounds_a").c[column("hard_wins")]).toBe(1);
    expect(of("rounds_b").c[column("declined")]).toBe(1);
    expect(of("rounds_b").c[column("hard_wins")]).toBe(0);
  });

  it("writes together or not at all: a failing statement takes the others' rows back", async () => {
    const requestId = randomUUID();
    const store = new RoundStore(database);
    await expect(
      database.writeTogether([
        {
          text: "insert into solver_answer_stats_pending (stats) values ($1::json)",
          params: [JSON.stringify([{ m: "x" }])],
        },
        { text: "select 1 / $1::int", params: [0] },
      ]),
    ).rejects.toThrow(/division by zero/);
    const rows = await database.query<{ n: string | number }>(
      "select count(*) as n from solver_answer_stats_pending where stats::text like '%\"x\"%'",
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // And the database is usable at once afterwards (the connection went back clean).
    await store.saveHardRound([answer(requestId, "rounds_c", "5")], undefined);
    expect(await store.answersOf(requestId)).toHaveLength(1);
  });

  it("names the statement that failed, not the ones after it that the failed transaction refused", async () => {
    const marker = randomUUID();
    const insert = {
      text: "insert into solver_answer_stats_pending (stats) values ($1::json)",
      params: [JSON.stringify([{ m: marker }])],
    };
    await expect(
      database.writeTogether([insert, { text: "select 1 / $1::int", params: [0] }, insert, insert]),
    ).rejects.toThrow(/division by zero/);
    const rows = await database.query<{ n: string | number }>(
      "select count(*) as n from solver_answer_stats_pending where stats::text like $1",
      [`%${marker}%`],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    await database.writeTogether([insert, insert]);
    const written = await database.query<{ n: string | number }>(
      "select count(*) as n from solver_answer_stats_pending where stats::text like $1",
      [`%${marker}%`],
    );
    expect(Number(written[0]!.n)).toBe(2);
  });
});

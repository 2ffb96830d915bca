// Storing a /quote round (QuoteRepository.saveQuoteRound) on PGlite and PostgreSQL: every value reads back as
// given, answers keep their order, rounds without answers or entries store their request, and a round that
// cannot be stored whole leaves nothing behind.
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { SolverAnswerRow } from "../../src/rounds/store.ts";
import { solverAnswers } from "../../src/rounds/tables.ts";
import { QuoteRepository, type QuoteRequestRow } from "../../src/swap/repository.ts";
import { quoteRequests, quotes } from "../../src/swap/tables.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const MAX_UINT256 = (2n ** 256n - 1n).toString();
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

describe.each(databaseKinds)("QuoteRepository.saveQuoteRound (%s)", (kind) => {
  let database: Database;
  let repository: QuoteRepository;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    repository = new QuoteRepository(database);
  });
  afterAll(async () => {
    await database?.close();
  });

  const createdAt = new Date("2026-11-21T22:39:47.792Z");

  function requestRow(requestId: string): QuoteRequestRow {
    return {
      requestId,
      swapper: addr(0x5),
      tokenIn: addr(0x7),
      tokenOut: addr(0x11),
      amount: MAX_UINT256,
      outputs: [
        { token: addr(0x11), recipient: addr(0xfee), portionBps: 25 },
        { token: addr(0x11), recipient: addr(0x5) },
      ],
      solverIds: ["ext_a", "int_b"],
      routingPreference: "BEST_PRICE",
      permitAmount: "EXACT",
      inventoryBlock: 2n ** 40n + 7n,
      createdAt,
    };
  }

  function answerRows(requestId: string, quoteIds: string[]): SolverAnswerRow[] {
    return [
      {
        requestId,
        round: "quote",
        solverId: "ext_z",
        quoteId: quoteIds[0]!,
        outcome: "quoted",
        reason: null,
        detail: null,
        latencyMs: 49.987,
        amountOut: MAX_UINT256,
        legs: 2,
        offeredLegs: [
          { adapter: addr(0xa1), maxAssets: MAX_UINT256, maxRate: "1000000000000000000" },
          { adapter: addr(0xa1), maxAssets: MAX_UINT256, maxRate: "997000000000000000" },
        ],
        createdAt,
      },
      {
        requestId,
        round: "quote",
        solverId: "ext_a",
        quoteId: quoteIds[1]!,
        outcome: "rejected",
        reason: "invalid_body",
        detail: 'chainId: "quoted" \\ ünïcode',
        latencyMs: 1000.001,
        amountOut: null,
        legs: 1,
        offeredLegs: [{ adapter: addr(0xa2), maxAssets: "0", maxRate: "1" }],
        createdAt,
      },
      {
        requestId,
        round: "quote",
        solverId: "ext_m",
        quoteId: quoteIds[2]!,
        outcome: "declined",
        reason: null,
        detail: null,
        latencyMs: 5,
        amountOut: null,
        legs: 1,
        // As rounds stored before the legs were kept read back.
        offeredLegs: null,
        createdAt,
      },
    ];
  }

  function entryRow(requestId: string, quoteId: string, rank: number) {
    return {
      quoteId,
      requestId,
      solverId: "ext_z",
      filler: addr(0xf1),
      rank,
      tokenIn: addr(0x7),
      amountIn: "1000000000000000000000",
      tokenOut: addr(0x11),
      amountOut: "998500499",
      outputs: [
        { token: addr(0x11), recipient: addr(0xfee), amount: "2496", portionBps: 25 },
        { token: addr(0x11), recipient: addr(0x5), amount: "998498003" },
      ],
      deadline: 1_795_300_000,
      nonce: MAX_UINT256,
      protocol: addr(0x9),
      createdAt,
    };
  }

  async function storedRound(requestId: string) {
    const { db } = database;
    const [request] = await db.select().from(quoteRequests).where(eq(quoteRequests.requestId, requestId));
    const answers = await db
      .select()
      .from(solverAnswers)
      .where(eq(solverAnswers.requestId, requestId))
      .orderBy(asc(solverAnswers.id));
    const entries = await db
      .select()
      .from(quotes)
      .where(eq(quotes.requestId, requestId))
      .orderBy(asc(quotes.rank));
    return { request, answers, entries };
  }

  it("stores the request, every answer in order and every entry, each value as given", async () => {
    const requestId = randomUUID();
    const quoteIds = [randomUUID(), randomUUID(), randomUUID()];
    const answers = answerRows(requestId, quoteIds);
    const entries = [
      entryRow(requestId, quoteIds[0]!, 0),
      { ...entryRow(requestId, quoteIds[1]!, 1), deadline: 7 },
    ];
    await repository.saveQuoteRound(requestRow(requestId), answers, entries);

    const stored = await storedRound(requestId);
    expect(stored.request).toEqual(requestRow(requestId));
    expect(stored.answers.map(({ id: _id, ...answer }) => answer)).toEqual(answers);
    expect(stored.entries).toEqual(entries);
    // The entry can be found the way POST /order looks it up.
    expect(await repository.findQuote(quoteIds[1]!)).toEqual({
      quote: entries[1],
      request: requestRow(requestId),
    });
  });

  it("stores a round without answers or entries, and a request without its optional fields", async () => {
    const requestId = randomUUID();
    const request = {
      ...requestRow(requestId),
      solverIds: null,
      permitAmount: null,
      inventoryBlock: null,
    };
    await repository.saveQuoteRound(request, [], []);
    expect(await storedRound(requestId)).toEqual({ request, answers: [], entries: [] });
  });

  it("stores several rounds in one statement, each answer with its own round, in order", async () => {
    const first = randomUUID();
    const second = randomUUID();
    const firstIds = [randomUUID(), randomUUID(), randomUUID()];
    const secondIds = [randomUUID(), randomUUID(), randomUUID()];
    await repository.saveQuoteRounds([
      {
        request: requestRow(first),
        answers: answerRows(first, firstIds),
        entries: [entryRow(first, firstIds[0]!, 0)],
      },
      {
        request: { ...requestRow(second), solverIds: null },
        answers: answerRows(second, secondIds),
        entries: [],
      },
    ]);
    const [a, b] = [await storedRound(first), await storedRound(second)];
    expect(a.request).toEqual(requestRow(first));
    expect(b.request).toEqual({ ...requestRow(second), solverIds: null });
    expect(a.answers.map((row) => row.quoteId)).toEqual(firstIds);
    expect(b.answers.map((row) => row.quoteId)).toEqual(secondIds);
    // Ids follow the order given across the rounds.
    expect(a.answers.at(-1)!.id < b.answers[0]!.id).toBe(true);
    expect(a.entries.map((row) => row.quoteId)).toEqual([firstIds[0]]);
    expect(b.entries).toEqual([]);
  });

  it("stores nothing of a round that cannot be stored whole", async () => {
    const first = randomUUID();
    const taken = randomUUID();
    await repository.saveQuoteRound(requestRow(first), [], [entryRow(first, taken, 0)]);

    // The second round's entry reuses a stored quote id: its request and answers must not stay behind.
    const second = randomUUID();
    const answers = answerRows(second, [randomUUID(), randomUUID(), randomUUID()]);
    await expect(
      repository.saveQuoteRound(requestRow(second), answers, [entryRow(second, taken, 0)]),
    ).rejects.toThrow();
    expect(await storedRound(second)).toEqual({ request: undefined, answers: [], entries: [] });
  });
});

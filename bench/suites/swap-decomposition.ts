// Where /quote's own time goes, for the database work it does on every request: the service's own repositories,
// timed one call after another from the bench process once the server has stopped (nothing else on the event loop
// or the connection), on the database the server just used. Storing the round happens after the response (in
// batches, see src/swap/round-writer.ts), so it is CPU and database work, no longer latency; the live-discount
// lookup happens before any solver is asked.

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { systemClock } from "../../src/clock.ts";
import { DiscountRepository } from "../../src/discounts/repository.ts";
import { solverAnswers } from "../../src/rounds/tables.ts";
import { QuoteRepository } from "../../src/swap/repository.ts";
import { quoteRequests, quotes } from "../../src/swap/tables.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { quantile } from "../lib/closed-loop.ts";

export interface OperationTiming {
  calls: number;
  p50Ms: number;
  p99Ms: number;
}

export interface QuoteDecomposition {
  /** QuoteRepository.saveQuoteRound with a copy of a stored round (1 request, its answers and entries). */
  saveRound: OperationTiming & { answers: number; entries: number };
  /** DiscountRepository.listForToken (LiveDiscounts.offers runs it for every snapshot a request uses). */
  listDiscounts: OperationTiming;
}

const CALLS = 200;

export async function decomposeQuote(kind: BenchDatabaseKind, tokenIn: Address): Promise<QuoteDecomposition> {
  const database = await ownDatabase(kind, "swap").openUnmigrated();
  try {
    const { db } = database;
    const [request] = await db.select().from(quoteRequests).limit(1);
    if (!request) throw new Error("no stored /quote round to copy");
    const answers = await db
      .select()
      .from(solverAnswers)
      .where(eq(solverAnswers.requestId, request.requestId));
    const entries = await db.select().from(quotes).where(eq(quotes.requestId, request.requestId));
    const repository = new QuoteRepository(database);
    const saveRound = await time(async () => {
      const requestId = randomUUID();
      await repository.saveQuoteRound(
        { ...request, requestId },
        answers.map(({ id: _id, ...answer }) => ({ ...answer, requestId, quoteId: randomUUID() })),
        entries.map((entry) => ({ ...entry, requestId, quoteId: randomUUID() })),
      );
    });
    const discounts = new DiscountRepository(database, { clock: systemClock });
    const listDiscounts = await time(() => discounts.listForToken(tokenIn).then(() => undefined));
    return { saveRound: { ...saveRound, answers: answers.length, entries: entries.length }, listDiscounts };
  } finally {
    await database.close();
  }
}

async function time(operation: () => Promise<void>): Promise<OperationTiming> {
  // A few unmeasured calls first (connection, statement caches, JIT).
  for (let i = 0; i < 10; i++) await operation();
  const durations: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await operation();
    durations.push(performance.now() - started);
  }
  return { calls: CALLS, p50Ms: quantile(durations, 0.5), p99Ms: quantile(durations, 0.99) };
}

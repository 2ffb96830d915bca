// Reads and writes of the quote flow's tables.
import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { answerFact, answersWrite, type SolverAnswerRow } from "../rounds/store.ts";
import { noSolverActivity, type SolverActivity } from "../scorecards/activity.ts";
import { answerStatsWrites, type WinFact } from "../scorecards/answer-stats.ts";
import { type QuoteRound, quoteRoundsWrite } from "./quote-round-statement.ts";
import { quoteRequests, quotes } from "./tables.ts";

export type QuoteRequestRow = typeof quoteRequests.$inferInsert;
export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteEntryRow = typeof quotes.$inferInsert;
export type StoredQuote = { quote: QuoteRow; request: typeof quoteRequests.$inferSelect };

export class QuoteRepository {
  constructor(
    private readonly database: Database,
    private readonly activity: SolverActivity = noSolverActivity,
  ) {}

  /** Stores one /quote call: the request, every solver answer and every entry, all or nothing. */
  async saveQuoteRound(
    request: QuoteRequestRow,
    answers: readonly SolverAnswerRow[],
    entries: readonly QuoteEntryRow[],
  ): Promise<void> {
    await this.saveQuoteRounds([{ request, answers, entries }]);
  }

  /**
   * Stores several /quote calls in one transaction, all or nothing: their requests and entries (this module's
   * statement), their answers (the rounds') and what answers and soft wins (each round's rank-0 entry) add to the
   * scorecards (theirs).
   */
  async saveQuoteRounds(rounds: readonly QuoteRound[]): Promise<void> {
    const answers = rounds.flatMap((round) => round.answers);
    const facts = answers.map(answerFact);
    const wins: WinFact[] = [];
    for (const round of rounds) {
      for (const entry of round.entries) {
        if (entry.rank === 0) wins.push({ solverId: entry.solverId, kind: "soft", at: entry.createdAt });
      }
    }
    await this.database.writeTogether([
      quoteRoundsWrite(rounds),
      ...answersWrite(answers),
      ...answerStatsWrites(facts, wins),
    ]);
    this.activity.answers(facts, wins);
  }

  async findRequest(requestId: string): Promise<typeof quoteRequests.$inferSelect | undefined> {
    const rows = await this.database.db
      .select()
      .from(quoteRequests)
      .where(eq(quoteRequests.requestId, requestId))
      .limit(1);
    return rows[0];
  }

  /** The entries a /quote round handed out (quotes_request_idx), best first. */
  async entriesOf(requestId: string): Promise<QuoteRow[]> {
    return this.database.db
      .select()
      .from(quotes)
      .where(eq(quotes.requestId, requestId))
      .orderBy(asc(quotes.rank));
  }

  async findQuote(quoteId: string): Promise<StoredQuote | undefined> {
    const rows = await this.database.db
      .select({ quote: quotes, request: quoteRequests })
      .from(quotes)
      .innerJoin(quoteRequests, eq(quotes.requestId, quoteRequests.requestId))
      .where(eq(quotes.quoteId, quoteId))
      .limit(1);
    return rows[0];
  }
}

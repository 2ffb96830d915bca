// Reads and writes of the quote flow's tables.
import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { noSolverActivity, type SolverActivity } from "../scorecards/activity.ts";
import {
  hardRoundActivity,
  hardRoundParams,
  type QuoteRound,
  quoteRoundsActivity,
  quoteRoundsParams,
  SAVE_HARD_ROUND_SQL,
  SAVE_HARD_ROUND_STATEMENT,
  SAVE_QUOTE_ROUNDS_SQL,
  SAVE_QUOTE_ROUNDS_STATEMENT,
} from "./quote-round-statement.ts";
import { quoteRequests, quotes, solverAnswers } from "./tables.ts";

export type QuoteRequestRow = typeof quoteRequests.$inferInsert;
export type SolverAnswerRow = typeof solverAnswers.$inferInsert;
export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteEntryRow = typeof quotes.$inferInsert;
export type SolverAnswer = typeof solverAnswers.$inferSelect;
export type StoredQuote = { quote: QuoteRow; request: typeof quoteRequests.$inferSelect };

export class QuoteRepository {
  constructor(
    private readonly database: Database,
    private readonly activity: SolverActivity = noSolverActivity,
  ) {}

  /** Stores one /quote call: the request, every solver answer and every entry, all or nothing (one statement). */
  async saveQuoteRound(
    request: QuoteRequestRow,
    answers: readonly SolverAnswerRow[],
    entries: readonly QuoteEntryRow[],
  ): Promise<void> {
    await this.saveQuoteRounds([{ request, answers, entries }]);
  }

  /** Stores several /quote calls in one statement, all or nothing. */
  async saveQuoteRounds(rounds: readonly QuoteRound[]): Promise<void> {
    const activity = quoteRoundsActivity(rounds);
    await this.database.query(SAVE_QUOTE_ROUNDS_SQL, quoteRoundsParams(rounds, activity), {
      name: SAVE_QUOTE_ROUNDS_STATEMENT,
    });
    this.activity.answers(activity.answers, activity.wins);
  }

  /** Stores a hard round's answers and what they (and its winner, if any) add to the scorecards: one statement. */
  async saveHardRound(
    answers: readonly SolverAnswerRow[],
    winnerSolverId: string | undefined,
  ): Promise<void> {
    if (answers.length === 0) return;
    const activity = hardRoundActivity(answers, winnerSolverId);
    await this.database.query(SAVE_HARD_ROUND_SQL, hardRoundParams(answers, activity), {
      name: SAVE_HARD_ROUND_STATEMENT,
    });
    this.activity.answers(activity.answers, activity.wins);
  }

  /** Every answer of the round a call ran (solver_answers_request_idx), in the order they were given. */
  async answersOf(requestId: string): Promise<SolverAnswer[]> {
    return this.database.db
      .select()
      .from(solverAnswers)
      .where(eq(solverAnswers.requestId, requestId))
      .orderBy(asc(solverAnswers.id));
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

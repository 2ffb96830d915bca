// Storage of rounds' answers: every solver answer of a round, written with what it adds to the scorecards in one
// transaction (the scorecards' statement is theirs: src/scorecards/answer-stats.ts), and read back by request id.
import { asc, eq } from "drizzle-orm";
import type { Database, WriteStatement } from "../db/client.ts";
import { jsonRecordset } from "../db/json-recordset.ts";
import { noSolverActivity, type SolverActivity } from "../scorecards/activity.ts";
import { type AnswerFact, answerStatsWrites, type WinFact } from "../scorecards/answer-stats.ts";
import { solverAnswers } from "./tables.ts";

export type SolverAnswerRow = typeof solverAnswers.$inferInsert;
export type SolverAnswer = typeof solverAnswers.$inferSelect;

const answerRecords = jsonRecordset(solverAnswers);

// The rows travel as one JSON array, so the text never changes whatever their number (prepared once per connection).
const SAVE_ANSWERS_SQL = `
insert into solver_answers (${answerRecords.columns})
select ${answerRecords.select("a")}
from rows from (${answerRecords.recordset("$1")} as (${answerRecords.definitions})) with ordinality
  as a(${answerRecords.names}, position)
-- Ids in the order the answers were given, as one multi-row INSERT would assign them.
order by a.position`;

/** The statement storing answer rows (none for no rows), for a writer to run with its own (writeTogether). */
export function answersWrite(answers: readonly SolverAnswerRow[]): WriteStatement[] {
  if (answers.length === 0) return [];
  return [{ text: SAVE_ANSWERS_SQL, params: [answerRecords.json(answers)], name: "sluice_save_answers" }];
}

export function answerFact(answer: SolverAnswerRow): AnswerFact {
  return {
    solverId: answer.solverId,
    outcome: answer.outcome,
    reason: answer.reason ?? null,
    latencyMs: answer.latencyMs,
    createdAt: answer.createdAt,
  };
}

export class RoundStore {
  constructor(
    private readonly database: Database,
    private readonly activity: SolverActivity = noSolverActivity,
  ) {}

  /** Stores a hard round's answers and what they (and its winner, if any) add to the scorecards, all or nothing. */
  async saveHardRound(
    answers: readonly SolverAnswerRow[],
    winnerSolverId: string | undefined,
  ): Promise<void> {
    if (answers.length === 0) return;
    const won = answers.find((answer) => answer.solverId === winnerSolverId);
    const wins: WinFact[] = won ? [{ solverId: won.solverId, kind: "hard", at: won.createdAt }] : [];
    const facts = answers.map(answerFact);
    await this.database.writeTogether([...answersWrite(answers), ...answerStatsWrites(facts, wins)]);
    this.activity.answers(facts, wins);
  }

  /** Every answer of the round a call ran (solver_answers_request_idx), in the order they were given. */
  async answersOf(requestId: string): Promise<SolverAnswer[]> {
    return this.database.db
      .select()
      .from(solverAnswers)
      .where(eq(solverAnswers.requestId, requestId))
      .orderBy(asc(solverAnswers.id));
  }
}

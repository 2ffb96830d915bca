// /quote rounds as ONE SQL statement: the request rows, every solver answer and every entry of one or more rounds,
// inserted by data-modifying CTEs. It is atomic like the transaction it replaces (BEGIN, three INSERTs, COMMIT:
// five round trips per round) but takes one round trip for any number of rounds, and its text never changes, so
// no query builder runs per request: the rows travel as three JSON arrays, expanded by jsonb_to_recordset. The
// columns of each come from the drizzle table (db/json-recordset.ts).
import { jsonRecordset } from "../db/json-recordset.ts";
import {
  type AnswerFact,
  answerStatsDeltas,
  appendAnswerStatsSql,
  type WinFact,
} from "../scorecards/answer-stats.ts";
import { quoteRequests, quotes, solverAnswers } from "./tables.ts";

export type QuoteRequestInsert = typeof quoteRequests.$inferInsert;
export type SolverAnswerInsert = typeof solverAnswers.$inferInsert;
export type QuoteInsert = typeof quotes.$inferInsert;

/** One /quote call as stored: its request, every solver answer and every entry handed to the client. */
export interface QuoteRound {
  request: QuoteRequestInsert;
  answers: readonly SolverAnswerInsert[];
  entries: readonly QuoteInsert[];
}

const requestRecords = jsonRecordset(quoteRequests);
const answerRecords = jsonRecordset(solverAnswers);
const quoteRecords = jsonRecordset(quotes);

/** The statement; `scorecards: false` leaves out what it adds to the scorecards (the bench's baseline only). */
export function saveQuoteRoundsSql(options: { scorecards: boolean }): string {
  return `
with requests as (
  insert into quote_requests (${requestRecords.columns})
  select ${requestRecords.select("r")}
  from jsonb_to_recordset($1::jsonb) as r(${requestRecords.definitions})
), answers as (
  insert into solver_answers (${answerRecords.columns})
  select ${answerRecords.select("a")}
  from rows from (jsonb_to_recordset($2::jsonb) as (${answerRecords.definitions})) with ordinality
    as a(${answerRecords.names}, position)
  -- Ids in the order the answers were given, as one multi-row INSERT would assign them.
  order by a.position
)${
    options.scorecards
      ? `, answer_stats as (
  -- What the rounds add to the scorecards, in the same statement: stored together with the answers or not at all.
  ${appendAnswerStatsSql("$4")}
)`
      : ""
  }
insert into quotes (${quoteRecords.columns})
select ${quoteRecords.select("q")}
from jsonb_to_recordset($3::jsonb) as q(${quoteRecords.definitions})`;
}

export const SAVE_QUOTE_ROUNDS_SQL = saveQuoteRoundsSql({ scorecards: true });
/** Prepared under these names on PostgreSQL: parsed and planned once per connection, not once per batch. */
export const SAVE_QUOTE_ROUNDS_STATEMENT = "sluice_save_quote_rounds";
export const SAVE_HARD_ROUND_STATEMENT = "sluice_save_hard_round";

/**
 * The statement's parameters: the rounds' requests, answers and entries, and what they add to the scorecards
 * (`activity`, the rounds' quoteRoundsActivity, passed by a caller that also needs it).
 */
export function quoteRoundsParams(
  rounds: readonly QuoteRound[],
  { answers, wins }: RoundActivity = quoteRoundsActivity(rounds),
): unknown[] {
  return [
    requestRecords.json(rounds.map((round) => round.request)),
    answerRecords.json(rounds.flatMap((round) => round.answers)),
    quoteRecords.json(rounds.flatMap((round) => round.entries)),
    JSON.stringify(answerStatsDeltas(answers, wins)),
  ];
}

/** What a save adds to the scorecards: its answers and the rounds they won. */
export interface RoundActivity {
  answers: AnswerFact[];
  wins: WinFact[];
}

/** The rounds' answers and soft wins (each round's rank-0 entry) as the scorecards count them. */
export function quoteRoundsActivity(rounds: readonly QuoteRound[]): RoundActivity {
  return {
    answers: rounds.flatMap((round) => round.answers.map(answerFact)),
    wins: rounds.flatMap((round) =>
      round.entries
        .filter((entry) => entry.rank === 0)
        .map((entry): WinFact => ({ solverId: entry.solverId, kind: "soft", at: entry.createdAt })),
    ),
  };
}

/**
 * A hard round (POST /order) as ONE statement: its answers, and what they and its winner (if one met the quoted total)
 * add to the scorecards (appended like a /quote round's).
 */
export const SAVE_HARD_ROUND_SQL = `
with answers as (
  insert into solver_answers (${answerRecords.columns})
  select ${answerRecords.select("a")}
  from rows from (jsonb_to_recordset($1::jsonb) as (${answerRecords.definitions})) with ordinality
    as a(${answerRecords.names}, position)
  order by a.position
)
${appendAnswerStatsSql("$2")}`;

export function hardRoundActivity(
  answers: readonly SolverAnswerInsert[],
  winnerSolverId: string | undefined,
): RoundActivity {
  const won = answers.find((answer) => answer.solverId === winnerSolverId);
  return {
    answers: answers.map(answerFact),
    wins: won ? [{ solverId: won.solverId, kind: "hard", at: won.createdAt }] : [],
  };
}

/** The hard round statement's parameters: its answers, and what they and its winner add to the scorecards. */
export function hardRoundParams(answers: readonly SolverAnswerInsert[], activity: RoundActivity): unknown[] {
  return [answerRecords.json(answers), JSON.stringify(answerStatsDeltas(activity.answers, activity.wins))];
}

function answerFact(answer: SolverAnswerInsert): AnswerFact {
  return {
    solverId: answer.solverId,
    outcome: answer.outcome,
    reason: answer.reason ?? null,
    latencyMs: answer.latencyMs,
    createdAt: answer.createdAt,
  };
}

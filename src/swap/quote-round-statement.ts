// /quote rounds as ONE SQL statement: the request rows, every solver answer and every entry of one or more rounds,
// inserted by data-modifying CTEs. It is atomic like the transaction it replaces (BEGIN, three INSERTs, COMMIT:
// five round trips per round) but takes one round trip for any number of rounds, and its text never changes, so
// no query builder runs per request: the rows travel as three JSON arrays, expanded by jsonb_to_recordset. The
// columns of each come from the drizzle table (db/json-recordset.ts).
import { jsonRecordset } from "../db/json-recordset.ts";
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

export const SAVE_QUOTE_ROUNDS_SQL = `
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
)
insert into quotes (${quoteRecords.columns})
select ${quoteRecords.select("q")}
from jsonb_to_recordset($3::jsonb) as q(${quoteRecords.definitions})`;

/** The statement's parameters: the rounds' requests, answers and entries as three JSON arrays. */
export function quoteRoundsParams(rounds: readonly QuoteRound[]): unknown[] {
  return [
    requestRecords.json(rounds.map((round) => round.request)),
    answerRecords.json(rounds.flatMap((round) => round.answers)),
    quoteRecords.json(rounds.flatMap((round) => round.entries)),
  ];
}

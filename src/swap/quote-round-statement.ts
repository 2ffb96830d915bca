// /quote rounds' own rows as ONE SQL statement: the request rows and every entry of one or more rounds, inserted by a
// data-modifying CTE. Its text never changes, so no query builder runs per request: the rows travel as JSON arrays,
// expanded by json_to_recordset, with the columns of each from the drizzle table (db/json-recordset.ts). The rounds'
// answers (src/rounds) and what they add to the scorecards (src/scorecards) are their modules' statements, written
// in the same transaction (QuoteRepository.saveQuoteRounds).
import type { WriteStatement } from "../db/client.ts";
import { jsonRecordset } from "../db/json-recordset.ts";
import type { SolverAnswerRow } from "../rounds/store.ts";
import { quoteRequests, quotes } from "./tables.ts";

export type QuoteRequestInsert = typeof quoteRequests.$inferInsert;
export type QuoteInsert = typeof quotes.$inferInsert;

/** One /quote call as stored: its request, every solver answer and every entry handed to the client. */
export interface QuoteRound {
  request: QuoteRequestInsert;
  answers: readonly SolverAnswerRow[];
  entries: readonly QuoteInsert[];
}

const requestRecords = jsonRecordset(quoteRequests);
const quoteRecords = jsonRecordset(quotes);

export const SAVE_QUOTE_ROUNDS_SQL = `
with requests as (
  insert into quote_requests (${requestRecords.columns})
  select ${requestRecords.select("r")}
  from ${requestRecords.recordset("$1")} as r(${requestRecords.definitions})
)
insert into quotes (${quoteRecords.columns})
select ${quoteRecords.select("q")}
from ${quoteRecords.recordset("$2")} as q(${quoteRecords.definitions})`;

/** The rounds' requests and entries, as one statement (prepared under its name on PostgreSQL). */
export function quoteRoundsWrite(rounds: readonly QuoteRound[]): WriteStatement {
  return {
    text: SAVE_QUOTE_ROUNDS_SQL,
    params: [
      requestRecords.json(rounds.map((round) => round.request)),
      quoteRecords.json(rounds.flatMap((round) => round.entries)),
    ],
    name: "sluice_save_quote_rounds",
  };
}

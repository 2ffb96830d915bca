// /quote rounds as ONE SQL statement: the request rows, every solver answer and every entry of one or more rounds,
// inserted by data-modifying CTEs. It is atomic like the transaction it replaces (BEGIN, three INSERTs, COMMIT:
// five round trips per round) but takes one round trip for any number of rounds, and its text never changes, so
// no query builder runs per request: the rows travel as three JSON arrays, expanded by jsonb_to_recordset.
import type { quoteRequests, quotes, solverAnswers } from "./tables.ts";

export type QuoteRequestInsert = typeof quoteRequests.$inferInsert;
export type SolverAnswerInsert = typeof solverAnswers.$inferInsert;
export type QuoteInsert = typeof quotes.$inferInsert;

/** One /quote call as stored: its request, every solver answer and every entry handed to the client. */
export interface QuoteRound {
  request: QuoteRequestInsert;
  answers: readonly SolverAnswerInsert[];
  entries: readonly QuoteInsert[];
}

export const SAVE_QUOTE_ROUNDS_SQL = `
with requests as (
  insert into quote_requests (request_id, swapper, token_in, token_out, amount, outputs, solver_ids,
    routing_preference, permit_amount, inventory_block, created_at)
  select r.request_id, r.swapper, r.token_in, r.token_out, r.amount, r.outputs, r.solver_ids,
    r.routing_preference, r.permit_amount, r.inventory_block, r.created_at
  from jsonb_to_recordset($1::jsonb) as r(request_id uuid, swapper text, token_in text, token_out text,
    amount numeric, outputs jsonb, solver_ids jsonb, routing_preference text, permit_amount text,
    inventory_block bigint, created_at timestamptz)
), answers as (
  insert into solver_answers (request_id, round, solver_id, quote_id, outcome, reason, detail, latency_ms,
    amount_out, legs, created_at)
  select a.request_id, a.round, a.solver_id, a.quote_id, a.outcome, a.reason, a.detail, a.latency_ms,
    a.amount_out, a.legs, a.created_at
  from rows from (jsonb_to_recordset($2::jsonb) as (request_id uuid, round text, solver_id text, quote_id uuid,
    outcome text, reason text, detail text, latency_ms float8, amount_out numeric, legs integer,
    created_at timestamptz)) with ordinality
    as a(request_id, round, solver_id, quote_id, outcome, reason, detail, latency_ms, amount_out, legs,
      created_at, position)
  -- Ids in the order the answers were given, as one multi-row INSERT would assign them.
  order by a.position
)
insert into quotes (quote_id, request_id, solver_id, filler, rank, token_in, amount_in, token_out, amount_out,
  outputs, deadline, nonce, protocol, created_at)
select q.quote_id, q.request_id, q.solver_id, q.filler, q.rank, q.token_in, q.amount_in, q.token_out,
  q.amount_out, q.outputs, q.deadline, q.nonce, q.protocol, q.created_at
from jsonb_to_recordset($3::jsonb) as q(quote_id uuid, request_id uuid, solver_id text, filler text,
  rank integer, token_in text, amount_in numeric, token_out text, amount_out numeric, outputs jsonb,
  deadline bigint, nonce numeric, protocol text, created_at timestamptz)`;

/** The statement's parameters; JSON keys are the column names of the recordsets above. */
export function quoteRoundsParams(rounds: readonly QuoteRound[]): unknown[] {
  return [
    JSON.stringify(rounds.map((round) => requestRecord(round.request))),
    JSON.stringify(rounds.flatMap((round) => round.answers.map(answerRecord))),
    JSON.stringify(rounds.flatMap((round) => round.entries.map(quoteRecord))),
  ];
}

function requestRecord(request: QuoteRequestInsert) {
  return {
    request_id: request.requestId,
    swapper: request.swapper,
    token_in: request.tokenIn,
    token_out: request.tokenOut,
    amount: request.amount,
    outputs: request.outputs,
    solver_ids: request.solverIds ?? null,
    routing_preference: request.routingPreference,
    permit_amount: request.permitAmount ?? null,
    inventory_block: request.inventoryBlock == null ? null : request.inventoryBlock.toString(),
    created_at: request.createdAt.toISOString(),
  };
}

function answerRecord(answer: SolverAnswerInsert) {
  return {
    request_id: answer.requestId,
    round: answer.round,
    solver_id: answer.solverId,
    quote_id: answer.quoteId,
    outcome: answer.outcome,
    reason: answer.reason ?? null,
    detail: answer.detail ?? null,
    latency_ms: answer.latencyMs,
    amount_out: answer.amountOut ?? null,
    legs: answer.legs,
    created_at: answer.createdAt.toISOString(),
  };
}

function quoteRecord(entry: QuoteInsert) {
  return {
    quote_id: entry.quoteId,
    request_id: entry.requestId,
    solver_id: entry.solverId,
    filler: entry.filler,
    rank: entry.rank,
    token_in: entry.tokenIn,
    amount_in: entry.amountIn,
    token_out: entry.tokenOut,
    amount_out: entry.amountOut,
    outputs: entry.outputs,
    deadline: entry.deadline,
    nonce: entry.nonce,
    protocol: entry.protocol,
    created_at: entry.createdAt.toISOString(),
  };
}

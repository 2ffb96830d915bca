// The solvers suite's dataset, generated in SQL (generate_series) inside the database: 1,000,000 solver answers and
// 100,000 orders (each with its request and quote entry) over the 8 days before now, spread over the deployment's
// solvers with every outcome and rejection reason, then the scorecard aggregates built from them by migration 0008's
// own backfill statements. Regenerated on every run: the windows are relative to now.
import { readFileSync } from "node:fs";
import type { Database } from "../../src/db/client.ts";

export const FULL_SOLVERS_PLAN = { answers: 1_000_000, orders: 100_000, days: 8 };

export interface SolversDatasetFacts {
  answers: number;
  orders: number;
  days: number;
  solvers: number;
  generationSeconds: number;
}

const MIGRATION = new URL("../../src/db/migrations/0008_solver_stats.sql", import.meta.url);
const ADDRESS = (n: number) => `'0x${n.toString(16).padStart(40, "0")}'`;

/** The migration's backfill statements (the three INSERTs into the aggregate tables). */
function backfillStatements(): string[] {
  return readFileSync(MIGRATION, "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter((statement) => /^(-- .*\n)*INSERT INTO "solver_(answer|order)_stats"/.test(statement));
}

/** `[name]` when the orders table has that trigger, else `[]`. */
async function hasTrigger(database: Database, name: string): Promise<string[]> {
  const rows = await database.query(
    "select 1 from pg_trigger where tgrelid = 'orders'::regclass and tgname = $1",
    [name],
  );
  return rows.length > 0 ? [name] : [];
}

export async function generateSolversDataset(
  database: Database,
  solverIds: readonly string[],
  scale: number,
): Promise<SolversDatasetFacts> {
  const started = performance.now();
  const answers = Math.max(1, Math.round(FULL_SOLVERS_PLAN.answers * scale));
  const orders = Math.max(1, Math.round(FULL_SOLVERS_PLAN.orders * scale));
  const solvers = `array[${solverIds.map((id) => `'${id}'`).join(",")}]`;
  const n = solverIds.length;
  const span = `interval '${FULL_SOLVERS_PLAN.days} days'`;
  await database.query(
    "truncate solver_answers, quotes, quote_requests, order_status_history, order_attempts, order_events, orders, solver_answer_stats, solver_answer_stats_pending, solver_order_stats",
  );
  // Outcomes: 75 % quoted, 15 % declined, 10 % rejected (each reason in turn); latencies 5–505 ms, skewed low.
  await database.query(`
    insert into solver_answers (request_id, round, solver_id, quote_id, outcome, reason, detail, latency_ms,
                                amount_out, legs, created_at)
    select md5('a' || (g / ${n}))::uuid, case when (g / ${n}) % 10 = 0 then 'order' else 'quote' end,
           (${solvers})[1 + g % ${n}], md5('aq' || g)::uuid,
           case when g % 20 < 15 then 'quoted' when g % 20 < 18 then 'declined' else 'rejected' end,
           case when g % 20 >= 18 then (array['timeout','http_status','invalid_body','echo_mismatch','wrong_filler',
             'zero_amount','network'])[1 + (g / 20) % 7] end,
           null, 5 + power((g::bigint * 7919 % 1000) / 1000.0, 3) * 500,
           case when g % 20 < 15 then 1000000 + g % 5000 end, 1,
           now() - ${span} * ((${answers} - g)::float8 / ${answers})
      from generate_series(0, ${answers - 1}) as g`);
  await database.query(`
    insert into quote_requests (request_id, swapper, token_in, token_out, amount, outputs, routing_preference, created_at)
    select md5('r' || g)::uuid, ${ADDRESS(0x5)}, ${ADDRESS(0x1)}, ${ADDRESS(0x2)}, 1000000000000000000, '[]',
           'BEST_PRICE', now() - ${span} * ((${orders} - g)::float8 / ${orders})
      from generate_series(0, ${orders - 1}) as g`);
  await database.query(`
    insert into quotes (quote_id, request_id, solver_id, filler, rank, token_in, amount_in, token_out, amount_out,
                        outputs, deadline, nonce, protocol, created_at)
    select md5('q' || g)::uuid, r.request_id, (${solvers})[1 + g % ${n}], ${ADDRESS(0xf1)}, 0, r.token_in,
           r.amount, r.token_out, 1000000, '[]', extract(epoch from r.created_at)::bigint + 120, g, ${ADDRESS(0x4)},
           r.created_at
      from generate_series(0, ${orders - 1}) as g join quote_requests r on r.request_id = md5('r' || g)::uuid`);
  // Orders are written as stored rows, not status changes: the stream log's trigger is off meanwhile, and the
  // aggregates (which only the order writers count) are built by the backfill below. A build before migration 0018
  // (an A/B's baseline) counted them in a trigger on orders: off as well, or the backfill would count them twice.
  const orderTriggers = ["orders_record_event", ...(await hasTrigger(database, "orders_record_stats"))];
  for (const trigger of orderTriggers)
    await database.query(`alter table "orders" disable trigger "${trigger}"`);
  try {
    await database.query(`
      insert into orders (order_id, quote_id, request_id, order_hash, status, swapper, filler, solver_id, token_in,
                          amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature,
                          encoded_order, finalized, created_at, updated_at, quote_request_id, token_out,
                          quoted_amount_out, committed_amount_out)
      select md5('o' || g)::uuid, q.quote_id, md5('h' || g)::uuid, '0x' || md5('oh' || g) || md5('oh2' || g),
             case when g % 10 < 8 then 'filled' when g % 10 = 8 then 'expired' else 'cancelled' end,
             ${ADDRESS(0x5)}, q.filler, q.solver_id, q.token_in, q.amount_in, g, q.deadline, '[]',
             jsonb_build_array(jsonb_build_object('token', q.token_out, 'recipient', ${ADDRESS(0x5)},
               'amount', (1000000 + g % 300)::text)),
             '0x', '0x', '0x', true, q.created_at, q.created_at + interval '1 second' * (2 + g % 90),
             q.request_id, q.token_out, q.amount_out, 1000000 + g % 300
        from generate_series(0, ${orders - 1}) as g join quotes q on q.quote_id = md5('q' || g)::uuid`);
  } finally {
    for (const trigger of orderTriggers)
      await database.query(`alter table "orders" enable trigger "${trigger}"`);
  }
  for (const statement of backfillStatements()) await database.query(statement);
  await database.query("analyze");
  return {
    answers,
    orders,
    days: FULL_SOLVERS_PLAN.days,
    solvers: n,
    generationSeconds: (performance.now() - started) / 1000,
  };
}

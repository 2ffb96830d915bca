// Writes the orders dataset into a migrated database with SQL alone (`insert … select … from generate_series`),
// in batches, with the orders table's secondary indexes dropped during the load and rebuilt after it (the same
// definitions, read back from the catalog, so a changed schema is followed).
//
// Rows look like the service's own: `outputs` the committed outputs (10% with a second, fee output),
// `signed_outputs` a little below them, filled orders with `tx_hash` and `settled_amounts` equal to the outputs,
// unique order/quote/request ids and order hashes, 65-byte signatures, and an ABI-encoded order of the length
// the real encoding has (18 + 6 × outputs words). Order i (1 = oldest) is created at a fixed spacing over
// `historyDays`, so the newest is the generation time. The open ones are among the newest (every 50th of the
// newest 50 × open), their deadlines years away so no reconciler expires them.
import type { Database } from "../../src/db/client.ts";
import {
  executorOf,
  ORDERS_ADDRESSES,
  type OrdersPlan,
  STATUS_PER_MILLE,
  solverIdOf,
} from "./orders-plan.ts";

export interface OrdersDatasetFacts {
  fingerprint: string;
  plan: OrdersPlan;
  /** Orders per status, as stored. */
  byStatus: Record<string, number>;
  /** Open orders per solver id. */
  openBySolver: Record<string, number>;
  fixtureSwapper: { address: string; orders: number };
  /** Size of the orders table with its indexes. */
  tableMb: number;
  generationSeconds: number;
}

const BATCH_ROWS = 50_000;
/** Newest orders are spaced this many apart among the open ones. */
const OPEN_SPACING = 50;

export async function generateOrdersDataset(
  database: Database,
  plan: OrdersPlan,
  fingerprint: string,
  log: (message: string) => void,
): Promise<OrdersDatasetFacts> {
  const started = performance.now();
  const indexes = await database.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = 'orders' and indexname <> 'orders_pkey'`,
  );
  for (const index of indexes) await database.query(`drop index ${index.indexname}`);
  const now = Math.floor(Date.now() / 1000);
  for (let first = 1; first <= plan.orders; first += BATCH_ROWS) {
    const last = Math.min(plan.orders, first + BATCH_ROWS - 1);
    await database.query(insertSql(plan, now), [first, last]);
    log(`orders ${last.toLocaleString("en")} / ${plan.orders.toLocaleString("en")}`);
  }
  log(`rebuilding ${indexes.length} indexes`);
  for (const index of indexes) await database.query(index.indexdef);
  await database.query("vacuum analyze orders");

  const statusRows = await database.query<{ status: string; n: string | number }>(
    "select status, count(*) as n from orders group by status order by status",
  );
  const openRows = await database.query<{ solver_id: string; n: string | number }>(
    "select solver_id, count(*) as n from orders where status = 'open' group by solver_id order by solver_id",
  );
  const [fixture] = await database.query<{ n: string | number }>(
    "select count(*) as n from orders where swapper = $1",
    [ORDERS_ADDRESSES.fixtureSwapper],
  );
  const [size] = await database.query<{ bytes: string | number }>(
    "select pg_total_relation_size('orders') as bytes",
  );
  return {
    fingerprint,
    plan,
    byStatus: Object.fromEntries(statusRows.map((row) => [row.status, Number(row.n)])),
    openBySolver: Object.fromEntries(openRows.map((row) => [row.solver_id, Number(row.n)])),
    fixtureSwapper: { address: ORDERS_ADDRESSES.fixtureSwapper, orders: Number(fixture?.n ?? 0) },
    tableMb: Math.round(Number(size?.bytes ?? 0) / 2 ** 20),
    generationSeconds: Math.round((performance.now() - started) / 1000),
  };
}

/** A SQL string literal (the values are the bench's own constants; quoting keeps them inert anyway). */
function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** 64 hex characters derived from `seed` (a SQL text expression). */
const hex64 = (seed: string) => `encode(sha256(convert_to(${seed}, 'UTF8')), 'hex')`;

/** One batch: orders $1..$2. */
function insertSql(plan: OrdersPlan, now: number): string {
  const n = plan.orders;
  const openCount = plan.openPerSolver * plan.solvers;
  const spacingSeconds = (plan.historyDays * 86_400) / n;
  const step = Math.floor(n / plan.fixtureSwapperOrders);
  const solverIds = `array[${Array.from({ length: plan.solvers }, (_, k) => literal(solverIdOf(k))).join(",")}]`;
  const executors = `array[${Array.from({ length: plan.solvers }, (_, k) => literal(executorOf(k))).join(",")}]`;
  let cumulative = 0;
  const statusCase = STATUS_PER_MILLE.map(({ status, perMille }) => {
    cumulative += perMille;
    return `when bucket < ${cumulative} then ${literal(status)}`;
  }).join(" ");
  const { tokenIn, tokenOut, feeRecipient, fixtureSwapper } = ORDERS_ADDRESSES;
  return `
    with base as (
      select i,
        (i::bigint * 2654435761) % 1000 as bucket,
        (${n} - i) < ${openCount * OPEN_SPACING} and (${n} - i) % ${OPEN_SPACING} = 0 as is_open,
        ((${n} - i) / ${OPEN_SPACING}) % ${plan.solvers} as open_solver,
        i % ${plan.solvers} as other_solver,
        i >= 7 and (i - 7) % ${step} = 0 and (i - 7) / ${step} < ${plan.fixtureSwapperOrders} as is_fixture,
        (i::bigint * 7919) % ${plan.swapperPool} as pool_index,
        case when i % 10 = 3 then 2 else 1 end as outputs_count,
        ((i::bigint * 48271) % 100000 + 1)::numeric * 10000000000000000 as amount_in,
        to_timestamp(${now} - (${n} - i) * ${spacingSeconds}) as created_at
      from generate_series($1::int, $2::int) as i
    ), h as (
      select base.*,
        case when is_open then 'open' ${statusCase} end as status,
        case when is_open then open_solver else other_solver end as solver_index,
        case when is_fixture then ${literal(fixtureSwapper)}
          else '0x' || left(${hex64(`'swapper-' || pool_index`)}, 40) end as swapper,
        -- amount_in is 18 decimals, the output 6: 0.995 of it as committed, 0.99 as signed.
        trunc(amount_in / 1000000000000 * 0.995) as out_amount,
        trunc(amount_in / 1000000000000 * 0.99) as signed_amount
      from base
    ), r as (
      select h.*,
        case when status = 'filled' or status = 'cancelled' then '0x' || ${hex64(`'tx-' || i`)} end as tx_hash,
        -- With two outputs the fee recipient gets 0.25% of the total.
        case when outputs_count = 1
          then jsonb_build_array(jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', swapper,
            'amount', out_amount::text))
          else jsonb_build_array(
            jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', swapper,
              'amount', (out_amount - trunc(out_amount * 0.0025))::text),
            jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', ${literal(feeRecipient)},
              'amount', trunc(out_amount * 0.0025)::text))
        end as outputs,
        case when outputs_count = 1
          then jsonb_build_array(jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', swapper,
            'amount', signed_amount::text))
          else jsonb_build_array(
            jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', swapper,
              'amount', (signed_amount - trunc(signed_amount * 0.0025))::text),
            jsonb_build_object('token', ${literal(tokenOut)}, 'recipient', ${literal(feeRecipient)},
              'amount', trunc(signed_amount * 0.0025)::text))
        end as signed_outputs
      from h
    )
    insert into orders (order_id, quote_id, request_id, quote_request_id, token_out, quoted_amount_out,
      committed_amount_out, order_hash, status, swapper, filler, solver_id, token_in,
      amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order,
      tx_hash, settled_amounts, created_at, updated_at)
    select
      md5('order-' || i)::uuid, md5('quote-' || i)::uuid, md5('request-' || i)::uuid,
      md5('quote-request-' || i)::uuid, ${literal(tokenOut)}, signed_amount, out_amount,
      '0x' || ${hex64(`'order-hash-' || i`)},
      status, swapper, (${executors})[solver_index + 1], (${solverIds})[solver_index + 1], ${literal(tokenIn)},
      amount_in,
      -- A 256-bit-sized nonce: four 60-bit pieces of a hash.
      (('x' || substr(md5('nonce-' || i), 1, 15))::bit(60)::bigint::numeric * 2::numeric ^ 180
        + ('x' || substr(md5('nonce-' || i), 16, 15))::bit(60)::bigint::numeric * 2::numeric ^ 120
        + ('x' || substr(md5('nonce2-' || i), 1, 15))::bit(60)::bigint::numeric * 2::numeric ^ 60
        + ('x' || substr(md5('nonce2-' || i), 16, 15))::bit(60)::bigint::numeric),
      case when status = 'open' then ${now} + 5 * 365 * 86400 else extract(epoch from created_at)::bigint + 120 end,
      signed_outputs, outputs,
      '0x' || ${hex64(`'swapper-sig-' || i`)} || ${hex64(`'swapper-sig2-' || i`)} || '1b',
      '0x' || ${hex64(`'protocol-sig-' || i`)} || ${hex64(`'protocol-sig2-' || i`)} || '1c',
      '0x' || repeat(${hex64(`'encoded-' || i`)}, 18 + 6 * outputs_count),
      tx_hash,
      case when status = 'filled'
        then (select jsonb_agg(o || jsonb_build_object('txHash', tx_hash)) from jsonb_array_elements(outputs) o)
        else '[]'::jsonb end,
      created_at,
      case status
        when 'open' then created_at
        when 'filled' then created_at + (2 + i % 28) * interval '1 second'
        else created_at + interval '121 seconds' + (i % 600) * interval '1 second'
      end
    from r`;
}

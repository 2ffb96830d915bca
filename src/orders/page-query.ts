// One page of GET /orders as SQL: the filters become one indexed WHERE clause, the keyset condition continues after
// a cursor, and the row carries exactly what the order record shows, already in its wire format where PostgreSQL
// can print it (timestamps), so the server does not parse values only to print them again.
import { createHash } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { Cursor } from "./cursor.ts";
import type { OrdersQuery } from "./schemas.ts";
import type { OrderStatus, SettledAmount } from "./tables.ts";

export interface OrderListRow extends Record<string, unknown> {
  order_id: string;
  order_hash: string;
  status: OrderStatus;
  quote_id: string;
  /** The /quote round's request id and the /order hard round's (orders.request_id). */
  quote_request_id: string;
  request_id: string;
  swapper: string;
  tx_hash: string | null;
  nonce: string;
  token_in: string;
  amount_in: string;
  outputs: Array<{ token: string; recipient: string; amount: string }>;
  settled_amounts: SettledAmount[];
  /** The quote's output token and the quoted and committed totals in it (decimal strings). */
  token_out: string;
  quoted_amount_out: string;
  committed_amount_out: string;
  /** Decimal digits (int8 as text), or null unless filled. */
  fill_block_number: string | null;
  finalized: boolean;
  /** ISO 8601 UTC with milliseconds, as the record shows it. */
  created_at_iso: string;
  updated_at_iso: string;
  /** Only with `solverId` or `filler`: true on open orders, which carry the execution fields below. */
  executable?: boolean;
  encoded_order?: string | null;
  protocol_signature?: string | null;
  deadline?: string | number | null;
  filler?: string | null;
  /** Sort column value with microseconds, for the cursor. */
  sort_value: string;
}

// `Date#toISOString` form: milliseconds, truncated like the driver's Date parsing did.
export const RECORD_TIME = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
// Microseconds: the keyset must compare equal to the stored value. (No output column may be named like a sort
// column: ORDER BY would sort by the output text instead of the indexed column.)
const CURSOR_TIME = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The WHERE clause and parameters of a query's filters (without the keyset condition). */
export function filterClause(query: OrdersQuery): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.orderId) where.push(`order_id = ${bind(query.orderId)}::uuid`);
  if (query.orderIds) where.push(`order_id = any(${bind(query.orderIds)}::uuid[])`);
  if (query.orderHash) where.push(`order_hash = ${bind(query.orderHash)}`);
  if (query.orderHashes) where.push(`order_hash = any(${bind(query.orderHashes)}::text[])`);
  if (query.orderStatus) where.push(`status = ${bind(query.orderStatus)}`);
  if (query.swapper) where.push(`swapper = ${bind(query.swapper)}`);
  if (query.filler) where.push(`filler = ${bind(query.filler)}`);
  if (query.solverId) where.push(`solver_id = ${bind(query.solverId)}`);
  return { where, params };
}

/**
 * The execution fields go only to the solver that must fill the order, and only while it is open. With
 * `solverId` every row is that solver's, and with `filler` every row is that Executor's (both are filters: a
 * solver polling by its Executor's address, as vault-solver does, gets them like one polling by its id); without
 * either they are not selected at all: the encoded order and signature are most of a row's bytes. They are public
 * by design: only `Order.filler` can fill the order.
 */
function executionColumns(query: OrdersQuery): string {
  if (query.solverId === undefined && query.filler === undefined) return "";
  return `status = 'open' as executable,
      case when status = 'open' then encoded_order end as encoded_order,
      case when status = 'open' then protocol_signature end as protocol_signature,
      deadline, filler,`;
}

/** The SQL of one page (exported for the EXPLAIN test and the bench's page diagnosis). */
export function pageSql(
  query: OrdersQuery,
  after: Cursor | undefined,
  pageSize: number,
): { text: string; params: unknown[] } {
  const { where, params } = filterClause(query);
  const column = query.sortKey === "updatedAt" ? "updated_at" : "created_at";
  const direction = query.sort === "asc" ? "asc" : "desc";
  // The indexes are declared DESC NULLS LAST; plain `desc` means NULLS FIRST, which PostgreSQL cannot read from them
  // and would sort every matching row per page. The columns are never null, so this changes no result.
  const nulls = direction === "desc" ? "nulls last" : "nulls first";
  if (after) {
    params.push(after.k, after.id);
    const op = direction === "desc" ? "<" : ">";
    where.push(`(${column}, order_id) ${op} ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(pageSize);
  const text = `select order_id, order_hash, status, quote_id, quote_request_id, request_id, swapper, tx_hash, nonce,
      token_in, amount_in, outputs, settled_amounts, token_out, quoted_amount_out::text as quoted_amount_out,
      committed_amount_out::text as committed_amount_out, fill_block_number::text as fill_block_number, finalized,
      to_char(created_at at time zone 'UTC', ${RECORD_TIME}) as created_at_iso,
      to_char(updated_at at time zone 'UTC', ${RECORD_TIME}) as updated_at_iso,
      ${executionColumns(query)}
      to_char(${column} at time zone 'UTC', ${CURSOR_TIME}) as sort_value
    from orders
    ${where.length > 0 ? `where ${where.join(" and ")}` : ""}
    order by ${column} ${direction} ${nulls}, order_id ${direction} ${nulls}
    limit $${params.length}`;
  return { text, params };
}

// Statement names by SQL text. A text is fixed by which of the eight filters, which ordering and whether a keyset a
// query has (values are parameters), so there are at most 2,048, and in practice the few combinations clients use.
const statementNames = new Map<string, string>();

/** A prepared statement's name for `text` (PostgreSQL parses and plans it once per connection). */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `orders_page_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Reads up to `pageSize` orders after `after` (from the start without it), as a prepared statement: parsing and
 * planning were a large share of the database's time for a short list.
 */
export function readPage(
  database: Database,
  query: OrdersQuery,
  after: Cursor | undefined,
  pageSize: number,
): Promise<OrderListRow[]> {
  const { text, params } = pageSql(query, after, pageSize);
  return database.query<OrderListRow>(text, params, { name: statementName(text) });
}

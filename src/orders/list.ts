// GET /orders as a keyset scan: the filters become one indexed WHERE clause, rows come in pages of PAGE_SIZE in the
// requested order, and the JSON is written as the pages arrive, so a list of any length streams in flat memory.
import { Readable } from "node:stream";
import type { Database } from "../db/client.ts";
import { ApiError } from "../http/errors.ts";
import type { OrderRecord, OrdersQuery } from "./schemas.ts";
import type { SettledAmount } from "./tables.ts";

const PAGE_SIZE = 1000;
const FILTERS = [
  "orderId",
  "orderIds",
  "orderHash",
  "orderHashes",
  "orderStatus",
  "swapper",
  "filler",
] as const;

interface OrderListRow extends Record<string, unknown> {
  order_id: string;
  order_hash: string;
  status: OrderRecord["orderStatus"];
  quote_id: string;
  swapper: string;
  tx_hash: string | null;
  nonce: string;
  token_in: string;
  amount_in: string;
  outputs: Array<{ token: string; recipient: string; amount: string }>;
  settled_amounts: SettledAmount[];
  created_at: Date | string;
  updated_at: Date | string;
  solver_id: string;
  encoded_order: string;
  protocol_signature: string;
  deadline: string | number;
  filler: string;
  sort_value: string;
}

interface Cursor {
  /** Sort column value, ISO 8601 with microseconds as PostgreSQL prints it. */
  k: string;
  id: string;
}

export class InvalidCursorError extends ApiError {
  constructor() {
    super(400, "VALIDATION_FAILED", "Invalid cursor", {
      issues: [{ path: "cursor", message: "not a cursor this API issued" }],
    });
  }
}

export function assertHasFilter(query: OrdersQuery): void {
  if (!FILTERS.some((name) => query[name] !== undefined)) {
    throw new ApiError(400, "MISSING_FILTER", `Give at least one of ${FILTERS.join(", ")}`, {
      issues: [{ path: "(query)", message: `at least one of ${FILTERS.join(", ")} is required` }],
    });
  }
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(value: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      typeof parsed?.k === "string" &&
      !Number.isNaN(Date.parse(parsed.k)) &&
      typeof parsed?.id === "string" &&
      /^[0-9a-f-]{36}$/.test(parsed.id)
    ) {
      return { k: parsed.k, id: parsed.id };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}

/** The WHERE clause and parameters of a query's filters (without the keyset condition). */
function filterClause(query: OrdersQuery): { where: string[]; params: unknown[] } {
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

/** The SQL of one page (exported for the EXPLAIN test). */
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
  const text = `select order_id, order_hash, status, quote_id, swapper, tx_hash, nonce, token_in, amount_in, outputs,
      settled_amounts, created_at, updated_at, solver_id, encoded_order, protocol_signature, deadline, filler,
      to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_value
    from orders
    ${where.length > 0 ? `where ${where.join(" and ")}` : ""}
    order by ${column} ${direction} ${nulls}, order_id ${direction} ${nulls}
    limit $${params.length}`;
  return { text, params };
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toRecord(row: OrderListRow, askingSolverId: string | undefined): OrderRecord {
  const record: OrderRecord = {
    type: "Priority",
    orderId: row.order_id,
    orderHash: row.order_hash,
    orderStatus: row.status,
    quoteId: row.quote_id,
    swapper: row.swapper as OrderRecord["swapper"],
    txHash: row.tx_hash,
    nonce: row.nonce,
    input: { token: row.token_in as OrderRecord["swapper"], amount: row.amount_in },
    outputs: row.outputs.map((o) => ({
      token: o.token,
      recipient: o.recipient,
      amount: o.amount,
    })) as OrderRecord["outputs"],
    settledAmounts: row.settled_amounts as OrderRecord["settledAmounts"],
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
  // Execution details go only to the solver that must fill the order, and only while it is open.
  if (askingSolverId !== undefined && row.solver_id === askingSolverId && row.status === "open") {
    record.encodedOrder = row.encoded_order;
    record.protocolSignature = row.protocol_signature;
    record.deadline = Number(row.deadline);
    record.filler = row.filler as OrderRecord["swapper"];
  }
  return record;
}

/**
 * Streams `{requestId, orders, cursor}`. Without `limit` every matching order is written, page by page; with
 * `limit` one page is written and `cursor` points after it.
 */
export function streamOrders(database: Database, query: OrdersQuery, requestId: string): Readable {
  assertHasFilter(query);
  let after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const limit = query.limit;

  async function* generate(): AsyncGenerator<string> {
    yield `{"requestId":${JSON.stringify(requestId)},"orders":[`;
    let written = 0;
    let first = true;
    for (;;) {
      const want = limit === undefined ? PAGE_SIZE : Math.min(PAGE_SIZE, limit - written);
      // One extra row tells a limited page whether anything follows.
      const fetch = limit === undefined ? want : want + 1;
      const { text, params } = pageSql(query, after, fetch);
      const rows = await database.query<OrderListRow>(text, params);
      const page = rows.slice(0, want);
      let chunk = "";
      for (const row of page) {
        chunk += (first ? "" : ",") + JSON.stringify(toRecord(row, query.solverId));
        first = false;
      }
      if (chunk) yield chunk;
      written += page.length;
      const last = page.at(-1);
      if (last) after = { k: last.sort_value, id: last.order_id };
      if (limit === undefined) {
        if (rows.length < fetch) break;
        continue;
      }
      const more = rows.length > want;
      if (written >= limit || !more) {
        yield `],"cursor":${more && after ? JSON.stringify(encodeCursor(after)) : "null"}}`;
        return;
      }
    }
    yield `],"cursor":null}`;
  }

  return Readable.from(generate(), { objectMode: false });
}

// GET /orders answers `{requestId, orders, cursor}`. A list shorter than a page (one order, a swapper's history, a
// solver's open orders: the usual answers) is read in one query and sent as one buffer; a longer one is a keyset
// scan whose pages are written as they arrive, so a list of any length streams in flat memory.
import type { Database } from "../db/client.ts";
import { type JsonBytes, type JsonText, jsonStream, writtenAsJson } from "../shared/json-text.ts";
import { type Cursor, decodeCursor, encodeCursor } from "./cursor.ts";
import { MissingOrdersFilterError } from "./errors.ts";
import { orderJson, ordersJson } from "./order-json.ts";
import { type OrderListRow, readPage } from "./page-query.ts";
import type { OrdersQuery, OrdersResponse } from "./schemas.ts";

export const PAGE_SIZE = 1000;
const STREAM_PIECE_CHARS = 64 * 1024;
const FILTERS = [
  "orderId",
  "orderIds",
  "orderHash",
  "orderHashes",
  "orderStatus",
  "swapper",
  "filler",
] as const;
const LAST_PAGE_TAIL = Buffer.from(`],"cursor":null}`);

export function assertHasFilter(query: OrdersQuery): void {
  if (!FILTERS.some((name) => query[name] !== undefined)) throw new MissingOrdersFilterError(FILTERS);
}

function answerHead(requestId: string): string {
  return `{"requestId":${JSON.stringify(requestId)},"orders":[`;
}

function cursorAfter(rows: readonly OrderListRow[]): Cursor | undefined {
  const last = rows.at(-1);
  return last ? { k: last.sort_value, id: last.order_id } : undefined;
}

/** A whole answer (nothing follows) around the inside of its `orders` array. */
export function wholeAnswer(requestId: string, orders: Buffer): JsonBytes<OrdersResponse> {
  return writtenAsJson(Buffer.concat([Buffer.from(answerHead(requestId)), orders, LAST_PAGE_TAIL]));
}

/**
 * The inside of the `orders` array of a list without `limit` or `cursor`, when the whole list fits in one page;
 * undefined when it is longer (it has to be streamed).
 */
export async function readShortList(database: Database, query: OrdersQuery): Promise<Buffer | undefined> {
  const rows = await readPage(database, query, undefined, PAGE_SIZE);
  return rows.length < PAGE_SIZE ? Buffer.from(ordersJson(rows, query.view)) : undefined;
}

/**
 * Without `limit` every matching order is written: in one buffer when the list fits in a page, else streamed page
 * by page. With `limit` (at most a page) one page is written and `cursor` points after it.
 */
export async function listOrders(
  database: Database,
  query: OrdersQuery,
  requestId: string,
): Promise<JsonText<OrdersResponse>> {
  assertHasFilter(query);
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (query.limit !== undefined) {
    // One extra row tells whether anything follows.
    const rows = await readPage(database, query, after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const next = rows.length > query.limit ? cursorAfter(page) : undefined;
    const cursor = next ? JSON.stringify(encodeCursor(next)) : "null";
    return writtenAsJson(
      Buffer.from(`${answerHead(requestId)}${ordersJson(page, query.view)}],"cursor":${cursor}}`),
    );
  }
  const first = await readPage(database, query, after, PAGE_SIZE);
  if (first.length < PAGE_SIZE) return wholeAnswer(requestId, Buffer.from(ordersJson(first, query.view)));
  return jsonStream(writtenAsJson<OrdersResponse>(streamPages(database, query, requestId, first)));
}

/**
 * The answer from its first, full page on, each further page read once the previous one is written. Written in
 * pieces of about STREAM_PIECE_CHARS: a string above V8's largest young-generation object (~128 KB, a few hundred
 * records) is allocated in the old generation, which only a full collection frees, and whole-page strings made the
 * server's RSS climb by ~150 MB over the filled list before one ran.
 */
async function* streamPages(
  database: Database,
  query: OrdersQuery,
  requestId: string,
  rows: OrderListRow[],
): AsyncGenerator<string> {
  let piece = answerHead(requestId);
  let separator = "";
  for (;;) {
    for (const row of rows) {
      piece += separator + orderJson(row, query.view);
      separator = ",";
      if (piece.length >= STREAM_PIECE_CHARS) {
        yield piece;
        piece = "";
      }
    }
    if (rows.length < PAGE_SIZE) break;
    // Reassigning the parameter lets the previous page go while the next one is read.
    rows = await readPage(database, query, cursorAfter(rows), PAGE_SIZE);
  }
  yield `${piece}],"cursor":null}`;
}

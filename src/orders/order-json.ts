// The JSON text of one order record (OrderRecordSchema), written straight from its row. Lists are written by hand
// (streamed, or cached pre-serialized), so no response serializer sees them; the row's SQL already gives every
// value its wire form, and the tests check what this writes against the schema.
import type { OrderListRow } from "./page-query.ts";
import { priceImprovement, totalOf } from "./price-improvement.ts";
import type { OrderView } from "./schemas.ts";

const string = JSON.stringify;

/** An order record; with `rfq-backend`, the real document's keys only (Sluice's additions left out). */
export function orderJson(row: OrderListRow, view: OrderView = "sluice"): string {
  const own = view === "sluice";
  let json =
    `{"type":"Priority","orderId":${string(row.order_id)}` +
    (own ? `,"orderHash":${string(row.order_hash)}` : "") +
    `,"orderStatus":${string(row.status)},"quoteId":${string(row.quote_id)},"swapper":${string(row.swapper)}` +
    `,"txHash":${row.tx_hash === null ? "null" : string(row.tx_hash)},"nonce":${string(row.nonce)}` +
    `,"input":{"token":${string(row.token_in)},"amount":${string(row.amount_in)}}` +
    `,"outputs":${outputsJson(row.outputs)},"settledAmounts":${string(row.settled_amounts)}`;
  if (own) {
    json +=
      // Block numbers are far below 2^53: a JSON number, written from PostgreSQL's digits.
      `,"fillBlockNumber":${row.fill_block_number ?? "null"},"finalized":${row.finalized ? "true" : "false"}` +
      amountsJson(row) +
      `,"createdAt":${string(row.created_at_iso)},"updatedAt":${string(row.updated_at_iso)}`;
  }
  if (row.executable) {
    json +=
      `,"encodedOrder":${string(row.encoded_order)},"protocolSignature":${string(row.protocol_signature)}` +
      `,"deadline":${Number(row.deadline)},"filler":${string(row.filler)}`;
  }
  return `${json}}`;
}

/**
 * The round links and the amount fields. The settled total comes from the row's own `settled_amounts` (the change's,
 * in the order log), so a stream event and GET /orders agree; the rest never change after the order is created.
 */
function amountsJson(row: OrderListRow): string {
  const quoted = BigInt(row.quoted_amount_out);
  const improvement = priceImprovement(quoted, BigInt(row.committed_amount_out));
  const settled =
    row.status === "filled" ? string(totalOf(row.settled_amounts, row.token_out).toString()) : "null";
  return (
    `,"quoteRequestId":${string(row.quote_request_id)},"orderRequestId":${string(row.request_id)}` +
    `,"quotedAmountOut":${string(row.quoted_amount_out)},"committedAmountOut":${string(row.committed_amount_out)}` +
    `,"settledAmountOut":${settled}` +
    `,"priceImprovement":{"amount":${string(improvement.amount)},"bps":${improvement.bps}}`
  );
}

/** The committed outputs with the record's three fields (the stored ones may carry `portionBps`). */
function outputsJson(outputs: OrderListRow["outputs"]): string {
  let json = "[";
  for (const [index, output] of outputs.entries()) {
    json +=
      `${index === 0 ? "" : ","}{"token":${string(output.token)},"recipient":${string(output.recipient)}` +
      `,"amount":${string(output.amount)}}`;
  }
  return `${json}]`;
}

/** The records of `rows`, comma-separated: the inside of an `orders` array. */
export function ordersJson(rows: readonly OrderListRow[], view: OrderView = "sluice"): string {
  return rows.map((row) => orderJson(row, view)).join(",");
}

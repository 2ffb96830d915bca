// Migration 0006 on orders stored before it: each order gets its quote's round, token and quoted total and the sum of
// its committed outputs, without a stream event. The migration's own statements run on a database put back into
// the shape before 0006 (its columns and index as 0000–0005 left them).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { packagePath } from "../../src/package-root.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const MIGRATION = packagePath("src", "db", "migrations", "0006_order_amounts.sql");
const TOKEN_OUT = `0x${"2".repeat(40)}`;
const FEE_TOKEN_ELSEWHERE = `0x${"3".repeat(40)}`;

/**
 * Drops what 0006 adds, as a database migrated through 0005 has it (cascading to whatever later migrations built on
 * those columns: only 0006's own statements run again here).
 */
async function backToBefore0006(database: Database): Promise<void> {
  await database.query(`alter table orders drop column quote_request_id cascade, drop column token_out cascade,
    drop column quoted_amount_out cascade, drop column committed_amount_out cascade`);
  await database.query("drop index orders_open_idx");
  await database.query(
    `create index orders_open_idx on orders using btree (swapper, nonce) where orders.status = 'open'`,
  );
}

async function run0006(database: Database): Promise<void> {
  for (const statement of readFileSync(MIGRATION, "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) await database.query(statement);
  }
}

/** A quote round, its entry (quoted `quoted`) and its order as 0005 stored it, with `committed` outputs. */
async function oldOrder(
  database: Database,
  n: number,
  quoted: string,
  committed: Array<{ token: string; amount: string }>,
): Promise<{ orderId: string; quoteRequestId: string; orderRequestId: string }> {
  const id = (prefix: string) => `${prefix}${n.toString(16).padStart(12, "0")}`;
  const quoteRequestId = id("11111111-1111-4111-8111-");
  const quoteId = id("22222222-2222-4222-8222-");
  const orderId = id("33333333-3333-4333-8333-");
  const orderRequestId = id("44444444-4444-4444-8444-");
  const swapper = `0x${"a".repeat(40)}`;
  await database.query(
    `insert into quote_requests (request_id, swapper, token_in, token_out, amount, outputs, routing_preference,
       created_at) values ($1, $2, $3, $4, 1000, '[]', 'BEST_PRICE', now())`,
    [quoteRequestId, swapper, `0x${"1".repeat(40)}`, TOKEN_OUT],
  );
  await database.query(
    `insert into quotes (quote_id, request_id, solver_id, filler, rank, token_in, amount_in, token_out, amount_out,
       outputs, deadline, nonce, protocol, created_at)
     values ($1, $2, 'ext_a', $3, 0, $4, 1000, $5, $6, '[]', 1900000000, $7, $3, now())`,
    [quoteId, quoteRequestId, `0x${"f".repeat(40)}`, `0x${"1".repeat(40)}`, TOKEN_OUT, quoted, n],
  );
  const outputs = JSON.stringify(committed.map((o) => ({ ...o, recipient: swapper })));
  await database.query(
    `insert into orders (order_id, quote_id, request_id, order_hash, status, swapper, filler, solver_id, token_in,
       amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order,
       created_at, updated_at)
     values ($1, $2, $3, $4, 'open', $5, $6, 'ext_a', $7, 1000, $8, 1900000000, '[]', $9::jsonb, '0x', '0x', '0x',
       now(), now())`,
    [
      orderId,
      quoteId,
      orderRequestId,
      `0x${n.toString(16).padStart(64, "0")}`,
      swapper,
      `0x${"f".repeat(40)}`,
      `0x${"1".repeat(40)}`,
      n,
      outputs,
    ],
  );
  return { orderId, quoteRequestId, orderRequestId };
}

describe.each(databaseKinds)("migration 0006 backfills existing orders (%s)", (kind) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("fills the quote round, the token, the quoted and the committed totals, and records no stream event", async () => {
    database = await createTestDatabase(kind);
    await backToBefore0006(database);
    const plain = await oldOrder(database, 1, "99000000", [{ token: TOKEN_OUT, amount: "99500000" }]);
    // A fee output and the remainder: both in tokenOut, so both count; an amount beyond 2^64 stays exact.
    const split = await oldOrder(database, 2, "123456789012345678901234567890", [
      { token: TOKEN_OUT, amount: "123456789012345678901234500000" },
      { token: TOKEN_OUT, amount: "100000" },
    ]);
    // An output in another token is not counted in tokenOut (none is made today; the sum is by token).
    const mixed = await oldOrder(database, 3, "500", [
      { token: TOKEN_OUT, amount: "500" },
      { token: FEE_TOKEN_ELSEWHERE, amount: "9" },
    ]);
    const [before] = await database.query<{ n: number }>("select count(*)::int as n from order_events");

    await run0006(database);

    const rows = await database.query<{
      order_id: string;
      quote_request_id: string;
      request_id: string;
      token_out: string;
      quoted: string;
      committed: string;
    }>(
      `select order_id, quote_request_id, request_id, token_out, quoted_amount_out::text as quoted,
         committed_amount_out::text as committed from orders order by nonce`,
    );
    expect(rows).toEqual([
      {
        order_id: plain.orderId,
        quote_request_id: plain.quoteRequestId,
        request_id: plain.orderRequestId,
        token_out: TOKEN_OUT,
        quoted: "99000000",
        committed: "99500000",
      },
      {
        order_id: split.orderId,
        quote_request_id: split.quoteRequestId,
        request_id: split.orderRequestId,
        token_out: TOKEN_OUT,
        quoted: "123456789012345678901234567890",
        committed: "123456789012345678901234600000",
      },
      {
        order_id: mixed.orderId,
        quote_request_id: mixed.quoteRequestId,
        request_id: mixed.orderRequestId,
        token_out: TOKEN_OUT,
        quoted: "500",
        committed: "500",
      },
    ]);
    const [after] = await database.query<{ n: number }>("select count(*)::int as n from order_events");
    expect(after!.n).toBe(before!.n);
    // The columns are required from now on, and the trigger records changes again.
    await expect(
      database.query("update orders set quoted_amount_out = null where order_id = $1", [plain.orderId]),
    ).rejects.toThrow(/null/);
    await database.query("update orders set updated_at = now() where order_id = $1", [plain.orderId]);
    const [recorded] = await database.query<{ n: number }>("select count(*)::int as n from order_events");
    expect(recorded!.n).toBe(before!.n + 1);
  });
});

// Order rows as POST /order stores them, without a chain: for tests of what reads and publishes stored orders.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../../src/db/client.ts";
import type { NewOrder } from "../../src/orders/repository.ts";

/** `seed` as a 0x-prefixed hex string of `length` digits. */
export const hex = (length: number, seed: number) => `0x${seed.toString(16).padStart(length, "0")}`;
let seed = 0;

/** An open order of `solverId` created at `at`; each call has its own hash, nonce and signatures. */
export function newOrder(solverId: string, at: Date, overrides: Partial<NewOrder> = {}): NewOrder {
  seed += 1;
  const swapper = hex(40, 0xabc);
  return {
    orderId: randomUUID(),
    quoteId: randomUUID(),
    requestId: randomUUID(),
    quoteRequestId: randomUUID(),
    tokenOut: hex(40, 0x2),
    // The outputs below: a 99,250,000 total committed over a 99,000,000 quote.
    quotedAmountOut: "99000000",
    committedAmountOut: "99250000",
    orderHash: hex(64, seed),
    status: "open",
    swapper,
    filler: hex(40, 0xf111),
    solverId,
    tokenIn: hex(40, 0x1),
    amountIn: "1000000000000000000",
    nonce: String(seed),
    deadline: 1_900_000_000,
    signedOutputs: [{ token: hex(40, 0x2), recipient: swapper, amount: "99000000" }],
    outputs: [
      { token: hex(40, 0x2), recipient: swapper, amount: "99000000", portionBps: 9975 },
      { token: hex(40, 0x2), recipient: hex(40, 0xfee), amount: "250000", portionBps: 25 },
    ],
    swapperSignature: hex(130, seed),
    protocolSignature: hex(130, seed + 1),
    encodedOrder: hex(512, seed),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/**
 * Inserts `count` orders of `swapper` (solver `solverId`) in one transaction, each shaped like POST /order's (two
 * outputs, 65-byte signatures, an encoded order of a real one's length), created one millisecond apart from `from` on.
 * Open by default; `filled`, they are filled and final (a history no worker reads again). Each creation is logged
 * as the orders trigger logs it (one change per order, ids in creation order, one NOTIFY), written in bulk: the
 * trigger's row-at-a-time work made 30,000 orders take minutes. For tests that need many orders fast.
 */
export async function insertOrders(
  database: Pick<Database, "db">,
  options: { count: number; swapper: string; solverId: string; from: Date; status?: "open" | "filled" },
): Promise<void> {
  const { count, swapper, solverId, from } = options;
  // Inlined: every value is the test's own (hex, an id, an ISO time, a count).
  if (!/^0x[0-9a-f]+$/.test(swapper) || !/^\w+$/.test(solverId) || !Number.isInteger(count))
    throw new Error("insertOrders: unexpected swapper, solver id or count");
  const filled = options.status === "filled";
  const at = `timestamptz '${from.toISOString()}' + i * interval '1 millisecond'`;
  const txHash = `'0x' || md5(i || 'tx') || md5('tx' || i)`;
  const output = (recipient: string, amount: string, portionBps: number) =>
    `jsonb_build_object('token', '0x' || repeat('2', 40), 'recipient', ${recipient}, 'amount', ${amount}, 'portionBps', ${portionBps})`;
  const outputs = `jsonb_build_array(${output(`'${swapper}'`, "(99000000 + i)::text", 9975)}, ${output("'0x' || repeat('e', 40)", "'250000'", 25)})`;
  const settled = filled
    ? `jsonb_build_array(jsonb_build_object('token', '0x' || repeat('2', 40), 'recipient', '${swapper}', 'amount', (99000000 + i)::text, 'txHash', ${txHash}))`
    : "'[]'::jsonb";
  await database.db.transaction(async (tx) => {
    // The orders trigger is skipped for this transaction; its changes are logged below, as it would log them.
    await tx.execute(sql.raw("set local session_replication_role = replica"));
    await tx.execute(sql.raw("select 1 from order_event_clock where id = 1 for update"));
    await tx.execute(
      sql.raw(`with created as (
        insert into orders (order_id, quote_id, request_id, quote_request_id, token_out, quoted_amount_out,
          committed_amount_out, order_hash, status, swapper, filler, solver_id, token_in, amount_in, nonce, deadline,
          signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order, created_at, updated_at,
          tx_hash, settled_amounts, fill_block_number, status_block_number, finalized)
        select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '0x' || repeat('2', 40),
          99000000, 99250000, '0x' || md5('${swapper}' || i) || md5(i || '${swapper}'), '${filled ? "filled" : "open"}',
          '${swapper}', '0x' || repeat('f', 40), '${solverId}', '0x' || repeat('1', 40), 1000000000000000000,
          7000000 + i, 1900000000, ${outputs}, ${outputs}, '0x' || repeat('ab', 65), '0x' || repeat('cd', 65),
          '0x' || repeat('0e', 24 * 32), ${at}, ${at}, ${filled ? txHash : "null"}, ${settled},
          ${filled ? "100 + i" : "null"}, ${filled ? "100 + i" : "null"}, ${filled}
        from generate_series(1, ${count}) as i
        returning order_id, status, tx_hash, settled_amounts, fill_block_number, finalized, updated_at, created_at)
      insert into order_events
        (id, order_id, status, tx_hash, settled_amounts, fill_block_number, finalized, updated_at, recorded_at)
      select nextval('order_events_id_seq'), order_id, status, tx_hash, settled_amounts, fill_block_number, finalized,
        updated_at, clock_timestamp()
      from (select * from created order by created_at) as ordered`),
    );
    await tx.execute(sql.raw("select pg_notify('order_events', '')"));
  });
}

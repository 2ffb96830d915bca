// Storage of orders: the counter-signed order, every POST /order call that reached it, and each status change
// written once with its reason.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { OutputAmount } from "../swap/tables.ts";

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });

export const ORDER_STATUSES = [
  "open",
  "filled",
  "expired",
  "error",
  "cancelled",
  "insufficient-funds",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface SettledAmount {
  token: string;
  amount: string;
  recipient: string;
  txHash: string;
}

export const orders = pgTable(
  "orders",
  {
    orderId: uuid("order_id").primaryKey(),
    /** One quote yields at most one order: this unique constraint decides concurrent posts. */
    quoteId: uuid("quote_id").notNull(),
    /** The request id of the POST /order call that created the order (its hard round's). */
    requestId: uuid("request_id").notNull(),
    /** The request id of the POST /quote round that issued the quote (quotes.request_id). */
    quoteRequestId: uuid("quote_request_id").notNull(),
    /** The quote's output token: the outputs' token, in which the amounts below are counted. */
    tokenOut: text("token_out").notNull(),
    /** The entry's quoted total (quotes.amount_out, the `aggregatedOutputs` amount). */
    quotedAmountOut: uint256("quoted_amount_out").notNull(),
    /** The hard round's total: the sum of the committed outputs in tokenOut (≥ the quoted total). */
    committedAmountOut: uint256("committed_amount_out").notNull(),
    orderHash: text("order_hash").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    swapper: text("swapper").notNull(),
    filler: text("filler").notNull(),
    solverId: text("solver_id").notNull(),
    /** The integrator whose API key placed the order (api_keys.name); null for the anonymous tier. */
    integrator: text("integrator"),
    tokenIn: text("token_in").notNull(),
    amountIn: uint256("amount_in").notNull(),
    nonce: uint256("nonce").notNull(),
    deadline: bigint("deadline", { mode: "number" }).notNull(),
    /** The outputs the swapper signed. */
    signedOutputs: jsonb("signed_outputs").$type<OutputAmount[]>().notNull(),
    /** The outputs committed in the Order (each ≥ its signed amount). */
    outputs: jsonb("outputs").$type<OutputAmount[]>().notNull(),
    swapperSignature: text("swapper_signature").notNull(),
    protocolSignature: text("protocol_signature").notNull(),
    encodedOrder: text("encoded_order").notNull(),
    txHash: text("tx_hash"),
    settledAmounts: jsonb("settled_amounts").$type<SettledAmount[]>().notNull().default(sql`'[]'::jsonb`),
    /** The block of the Fill that filled the order; null unless filled. */
    fillBlockNumber: bigint("fill_block_number", { mode: "bigint" }),
    /**
     * When the indexer saw the Fill (the server's clock as it read the fill's block); null unless filled. The fill
     * latency is measured to it: block timestamps are whole seconds, finer than nothing on a chain of 1 s blocks.
     */
    filledAt: timestamp("filled_at", { withTimezone: true, precision: 6 }),
    /** The block that decided the current status (a Fill, a nonce invalidation, the reconciler); null for `open`. */
    statusBlockNumber: bigint("status_block_number", { mode: "bigint" }),
    /** The status is an end status decided at a block at least the deployment's finality depth deep. */
    finalized: boolean("finalized").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull(),
  },
  (table) => [
    uniqueIndex("orders_quote_id_unique").on(table.quoteId),
    uniqueIndex("orders_order_hash_unique").on(table.orderHash),
    // Every /orders filter is served by an index that also yields the newest-first order.
    index("orders_created_idx").on(table.createdAt.desc(), table.orderId.desc()),
    index("orders_updated_idx").on(table.updatedAt.desc(), table.orderId.desc()),
    index("orders_status_created_idx").on(table.status, table.createdAt.desc(), table.orderId.desc()),
    index("orders_status_updated_idx").on(table.status, table.updatedAt.desc(), table.orderId.desc()),
    index("orders_swapper_created_idx").on(table.swapper, table.createdAt.desc(), table.orderId.desc()),
    index("orders_filler_created_idx").on(table.filler, table.createdAt.desc(), table.orderId.desc()),
    index("orders_solver_status_idx").on(
      table.solverId,
      table.status,
      table.createdAt.desc(),
      table.orderId.desc(),
    ),
    // The finalizer's working set: end statuses not final yet.
    index("orders_unfinalized_idx")
      .on(table.statusBlockNumber)
      .where(sql`not ${table.finalized} and ${table.status} in ('filled','expired','cancelled','error')`),
    // The orders a nonce invalidation can still cancel (the reconciler's working set, the open ones, among them).
    index("orders_open_idx")
      .on(table.swapper, table.nonce)
      .where(sql`${table.status} in ('open','insufficient-funds')`),
    check(
      "orders_status_check",
      sql`${table.status} in ('open','filled','expired','error','cancelled','insufficient-funds')`,
    ),
  ],
);

/** Every POST /order call that answered with an existing order (the creating call is on the order itself). */
export const orderAttempts = pgTable(
  "order_attempts",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.orderId),
    requestId: uuid("request_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("order_attempts_order_idx").on(table.orderId),
    // An order's trail by the request id of a re-post.
    index("order_attempts_request_idx").on(table.requestId),
  ],
);

/** Each status change, written once, with why and at which block. */
export const orderStatusHistory = pgTable(
  "order_status_history",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.orderId),
    fromStatus: text("from_status", { enum: ORDER_STATUSES }),
    toStatus: text("to_status", { enum: ORDER_STATUSES }).notNull(),
    reason: text("reason").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    txHash: text("tx_hash"),
    /** The request that wrote the change (POST /order's creation); null for the indexer's (block and tx say). */
    requestId: uuid("request_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("order_status_history_order_idx").on(table.orderId, table.id)],
);

export const ORDER_CHECKS = ["signature", "co-signature"] as const;

/**
 * The checks a POST /order ran on its quote, passed or failed, with the call's request id: the swapper's signature
 * (how it was judged, or its fault) and the protocol's co-signature. An order's trail shows them; a failed check
 * has no order, so they are kept by quote id.
 */
export const orderChecks = pgTable(
  "order_checks",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    requestId: uuid("request_id").notNull(),
    quoteId: uuid("quote_id").notNull(),
    check: text("check", { enum: ORDER_CHECKS }).notNull(),
    passed: boolean("passed").notNull(),
    /** How it passed (`ecdsa`, `erc1271`, the co-signer's address) or why it failed (the signature's fault). */
    detail: text("detail").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull(),
  },
  (table) => [
    index("order_checks_quote_idx").on(table.quoteId),
    index("order_checks_request_idx").on(table.requestId),
  ],
);

/**
 * The order stream's durable log: one row per change of an order row (creation, status, finality), written by a
 * trigger on `orders` (migrations 0003+) so no writer (a replica's POST /order, the indexer) can forget one. Each row
 * keeps the fields that change, as they were after that change; the rest of the order never changes. Ids come from
 * order_events_id_seq at commit time (a deferred trigger) while the committing transaction holds order_event_clock's
 * row lock, so they increase in commit order: a reader that has seen id n has seen every id below it. Rows older
 * than the retention window are pruned.
 */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey(),
    orderId: uuid("order_id").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    txHash: text("tx_hash"),
    settledAmounts: jsonb("settled_amounts").$type<SettledAmount[]>().notNull(),
    fillBlockNumber: bigint("fill_block_number", { mode: "bigint" }),
    finalized: boolean("finalized").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_events_recorded_idx").on(table.recordedAt)],
);

/** The order event ids, taken at commit under order_event_clock's row lock (migration 0005). */
export const orderEventIds = pgSequence("order_events_id_seq");

/**
 * One row: the newest order event id pruned (or dropped by a chain reset). Writers lock it (`for update`, no new row
 * version) at commit before taking their ids, which serialises their commits on it for that instant only. Locking
 * rather than counting in it keeps a transaction that changes many orders linear: updating one row once per change
 * in one transaction grows its version chain, and each update walks it.
 */
export const orderEventClock = pgTable("order_event_clock", {
  id: integer("id").primaryKey(),
  prunedThrough: bigint("pruned_through", { mode: "bigint" }).notNull(),
});

// Storage of the quote flow: each /quote's request and the quote entries handed to the client (the terms a later POST /order is checked against).
import { bigint, index, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });

import type { RequestedOutput } from "./outputs.ts";

/** An output with its amount as a decimal string, as stored (signed or committed). */
export interface OutputAmount {
  token: string;
  recipient: string;
  amount: string;
  portionBps?: number;
}

/** One POST /quote: the auction's request id and what was asked. */
export const quoteRequests = pgTable("quote_requests", {
  requestId: uuid("request_id").primaryKey(),
  swapper: text("swapper").notNull(),
  tokenIn: text("token_in").notNull(),
  tokenOut: text("token_out").notNull(),
  amount: uint256("amount").notNull(),
  outputs: jsonb("outputs").$type<RequestedOutput[]>().notNull(),
  /** The client's solver restriction, if it gave one. */
  solverIds: jsonb("solver_ids").$type<string[]>(),
  routingPreference: text("routing_preference").notNull(),
  permitAmount: text("permit_amount"),
  /** The block whose inventory the auction used. */
  inventoryBlock: bigint("inventory_block", { mode: "bigint" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/** A quote entry returned to the client: the Request the swapper will sign, and the quoted total. */
export const quotes = pgTable(
  "quotes",
  {
    quoteId: uuid("quote_id").primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => quoteRequests.requestId),
    solverId: text("solver_id").notNull(),
    filler: text("filler").notNull(),
    /** Position in the returned list (0 = best). */
    rank: integer("rank").notNull(),
    tokenIn: text("token_in").notNull(),
    amountIn: uint256("amount_in").notNull(),
    tokenOut: text("token_out").notNull(),
    /** The quoted total (`aggregatedOutputs` amount): what a hard round must meet. */
    amountOut: uint256("amount_out").notNull(),
    /** The Request's outputs with their split amounts. */
    outputs: jsonb("outputs").$type<OutputAmount[]>().notNull(),
    /** Unix seconds: the quote's expiry and the Request's deadline. */
    deadline: bigint("deadline", { mode: "number" }).notNull(),
    nonce: uint256("nonce").notNull(),
    protocol: text("protocol").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("quotes_request_idx").on(table.requestId)],
);

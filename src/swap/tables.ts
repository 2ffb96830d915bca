// Storage of the quote flow: each auction's request, every solver's answer in every round, and the quote entries
// handed to the client (the terms a later POST /order is checked against).
import {
  bigint,
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });

import type { RequestedOutput } from "./outputs.ts";

/** An output with its amount as a decimal string, as stored (signed or committed). */
export interface OutputAmount {
  token: string;
  recipient: string;
  amount: string;
  portionBps?: number;
}

/** One leg offered to a solver in a round, as stored with its answer (the auction results show it). */
export interface OfferedLeg {
  adapter: string;
  /** Capacity in tokenOut base units (decimal string). */
  maxAssets: string;
  /** 1e18-scaled rate (decimal string). */
  maxRate: string;
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

/** Every solver answer of every round (the /quote round and each /order hard round), with its reason. */
export const solverAnswers = pgTable(
  "solver_answers",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    /** The request id of the call that ran the round (/quote's or /order's). */
    requestId: uuid("request_id").notNull(),
    round: text("round", { enum: ["quote", "order"] }).notNull(),
    solverId: text("solver_id").notNull(),
    quoteId: uuid("quote_id").notNull(),
    outcome: text("outcome", { enum: ["quoted", "declined", "rejected"] }).notNull(),
    reason: text("reason"),
    detail: text("detail"),
    latencyMs: doublePrecision("latency_ms").notNull(),
    amountOut: uint256("amount_out"),
    legs: integer("legs").notNull(),
    /** The legs the solver was offered; null on rounds stored before they were kept (migration 0007). */
    offeredLegs: jsonb("offered_legs").$type<OfferedLeg[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("solver_answers_request_idx").on(table.requestId),
    index("solver_answers_quote_idx").on(table.quoteId),
  ],
);

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

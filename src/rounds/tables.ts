// Storage of auction rounds: every solver's answer in every round (the /quote round and each /order hard round).
import {
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

/** One leg offered to a solver in a round, as stored with its answer (the auction results show it). */
export interface OfferedLeg {
  adapter: string;
  /** Capacity in tokenOut base units (decimal string). */
  maxAssets: string;
  /** 1e18-scaled rate (decimal string). */
  maxRate: string;
}

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

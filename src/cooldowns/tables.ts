// Storage of the fade breaker: each solver's cooldown state (one small row per solver that ever had one, read by
// every replica), every start and end of a cooldown with its reason, and the outcome of each order assigned to a
// solver once it reached an end status (what fades are counted from).
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

export const solverCooldowns = pgTable("solver_cooldowns", {
  solverId: text("solver_id").primaryKey(),
  /** Null while the solver is not in cooldown. */
  cooldownUntil: timestamp("cooldown_until", { withTimezone: true }),
  reason: text("reason"),
  /** Cooldowns in a row, each started within the repeat window of the previous one's end: the doubling's exponent. */
  repeats: integer("repeats").notNull().default(0),
  /** When the last cooldown ended (or was lifted): outcomes before it no longer count. */
  lastEndedAt: timestamp("last_ended_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

export const COOLDOWN_EVENT_KINDS = ["start", "end"] as const;

export const solverCooldownEvents = pgTable(
  "solver_cooldown_events",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    solverId: text("solver_id").notNull(),
    kind: text("kind", { enum: COOLDOWN_EVENT_KINDS }).notNull(),
    reason: text("reason").notNull(),
    /** A start's end time; null on an end. */
    until: timestamp("until", { withTimezone: true }),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (table) => [index("solver_cooldown_events_solver_idx").on(table.solverId, table.id)],
);

/** What an assigned order's end meant for its solver: filled, a fade, or an end the solver is not blamed for. */
export const ORDER_OUTCOMES = ["filled", "faded", "excused"] as const;
export type OrderOutcome = (typeof ORDER_OUTCOMES)[number];

export const solverOrderOutcomes = pgTable(
  "solver_order_outcomes",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    solverId: text("solver_id").notNull(),
    orderId: uuid("order_id").notNull().unique(),
    swapper: text("swapper").notNull(),
    outcome: text("outcome", { enum: ORDER_OUTCOMES }).notNull(),
    /** The indexed block that decided the end (a reorg above it removes the row). */
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    // A solver's window is its newest outcomes after its last cooldown ended: one bounded index range scan.
    index("solver_order_outcomes_solver_idx").on(table.solverId, table.endedAt),
    index("solver_order_outcomes_block_idx").on(table.blockNumber),
    check("solver_order_outcomes_outcome_check", sql`${table.outcome} in ('filled', 'faded', 'excused')`),
  ],
);

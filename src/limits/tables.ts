// The fan-out class's shared counters on PostgreSQL: one row per caller and fixed window, counted by every replica, so
// the venue admits the configured rate whatever the number of replicas.
import { bigint, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    /** `<class>:<caller>`, e.g. `quote:ip:203.0.113.7` or `quote:key:<integrator>`. */
    key: text("key").notNull(),
    /** The window's start, in ms since the epoch by the database's clock (one clock for every replica). */
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    hits: integer("hits").notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/** The replicas sharing the venue's limits: each marks itself present every few seconds (replica-presence.ts). */
export const rateLimitReplicas = pgTable("rate_limit_replicas", {
  id: text("id").primaryKey(),
  /** Host and process, for an operator reading the table. */
  holder: text("holder").notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
});

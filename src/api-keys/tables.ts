// Storage of API keys: one row per integrator, the key itself never stored (only its SHA-256), revoked rows kept so a
// name names one integrator for good (orders record it).
import { integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const apiKeys = pgTable("api_keys", {
  id: uuid("id").primaryKey(),
  /** The integrator's name: unique for good, and what an order records. */
  name: text("name").notNull().unique(),
  /** SHA-256 of the key, hex: the key is 192 random bits, so a fast hash is as safe as a slow one. */
  keyHash: text("key_hash").notNull().unique(),
  /** The key's first characters, to tell keys apart in `keys list` and logs. */
  keyPrefix: text("key_prefix").notNull(),
  /** Null: the anonymous tier's RATE_LIMIT_QUOTES_PER_MINUTE. */
  quotesPerMinute: integer("quotes_per_minute"),
  /** Null: the anonymous tier's RATE_LIMIT_READS_PER_SECOND. */
  readsPerSecond: integer("reads_per_second"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

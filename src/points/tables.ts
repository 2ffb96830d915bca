// Storage of partner points: immutable snapshots per points type and block, their per-receiver rows, and
// the aggregates every read endpoint needs, computed once at ingest so each request is an indexed lookup.
import {
  bigint,
  customType,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";

/**
 * Text compared byte-wise. Addresses are lowercase hex, so "C" order is the order the API promises, the
 * same on every server whatever its default collation, and its comparisons are the cheapest.
 */
const bytewiseText = customType<{ data: string }>({
  dataType: () => 'text collate "C"',
});

/** A points amount in the smallest unit of its type: numeric(78,0) holds every uint256. */
const pointsAmount = (name: string) => numeric(name, { precision: 78, scale: 0 });

/** A points type and the number of implied decimals of its values (ours, "sluice", has 48). */
export const pointsTypes = pgTable("points_types", {
  name: bytewiseText("name").primaryKey(),
  decimals: integer("decimals").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One ingested snapshot of a points type at a block. Never changed once written. */
export const pointsSnapshots = pgTable(
  "points_snapshots",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    pointsType: bytewiseText("points_type")
      .notNull()
      .references(() => pointsTypes.name),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    totalPoints: pointsAmount("total_points").notNull(),
    receiverRows: integer("receiver_rows").notNull(),
    ingestedAt: timestamp("ingested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("points_snapshots_type_block_unique").on(table.pointsType, table.blockNumber)],
);

/**
 * Points of one receiver (of one receiver type) in one vault at one snapshot. The primary key serves the
 * streamed per-vault receiver list (keyset pages in receiver order); the receiver index serves the
 * per-receiver lookup. No foreign key to the snapshot: millions of rows are bulk-loaded in the same
 * transaction that creates it, and a per-row trigger check would only slow that down.
 */
export const pointsBalances = pgTable(
  "points_balances",
  {
    snapshotId: integer("snapshot_id").notNull(),
    vault: bytewiseText("vault").notNull(),
    receiver: bytewiseText("receiver").notNull(),
    receiverType: bytewiseText("receiver_type").notNull(),
    points: pointsAmount("points").notNull(),
  },
  (table) => [
    primaryKey({
      name: "points_balances_pk",
      columns: [table.snapshotId, table.vault, table.receiver, table.receiverType],
    }),
    index("points_balances_receiver_idx").on(table.receiver, table.snapshotId),
  ],
);

/** Per-vault totals of a snapshot: the total routes and the header of a streamed vault list. */
export const pointsVaultTotals = pgTable(
  "points_vault_totals",
  {
    snapshotId: integer("snapshot_id")
      .notNull()
      .references(() => pointsSnapshots.id),
    vault: bytewiseText("vault").notNull(),
    points: pointsAmount("points").notNull(),
  },
  (table) => [primaryKey({ name: "points_vault_totals_pk", columns: [table.snapshotId, table.vault] })],
);

/** Per-(vault, receiver type) totals of a snapshot: the vault-at-block route. */
export const pointsVaultTypeTotals = pgTable(
  "points_vault_type_totals",
  {
    snapshotId: integer("snapshot_id")
      .notNull()
      .references(() => pointsSnapshots.id),
    vault: bytewiseText("vault").notNull(),
    receiverType: bytewiseText("receiver_type").notNull(),
    points: pointsAmount("points").notNull(),
  },
  (table) => [
    primaryKey({
      name: "points_vault_type_totals_pk",
      columns: [table.snapshotId, table.vault, table.receiverType],
    }),
  ],
);

/** Every vault that appears in any snapshot: such a vault is "known" even if the registry is not. */
export const pointsVaults = pgTable("points_vaults", {
  address: bytewiseText("address").primaryKey(),
});

/**
 * A pull from a partner's External Points API. Each fetched page is staged together with the next page
 * (or offset) to fetch, so a re-run after a failure continues where the last one stopped.
 */
export const pointsSyncs = pgTable(
  "points_syncs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    sourceUrl: text("source_url").notNull(),
    pointsType: bytewiseText("points_type")
      .notNull()
      .references(() => pointsTypes.name),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    sourceDecimals: integer("source_decimals").notNull(),
    /** The feed's shape (`points-template`, `root`, `legacy`): a stored sync resumes only in the same one. */
    feedFormat: text("feed_format").notNull().default("legacy"),
    /**
     * Where to continue: the page number for a `legacy` feed, the row offset for the offset-paged ones; null
     * once every page is staged and only the final write remains.
     */
    nextPage: integer("next_page"),
    stagedRows: integer("staged_rows").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("points_syncs_source_type_unique").on(table.sourceUrl, table.pointsType)],
);

/** Rows of a sync in progress, already converted to the type's decimals. */
export const pointsSyncRows = pgTable(
  "points_sync_rows",
  {
    syncId: integer("sync_id")
      .notNull()
      .references(() => pointsSyncs.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    ordinal: integer("ordinal").notNull(),
    vault: bytewiseText("vault").notNull(),
    receiver: bytewiseText("receiver").notNull(),
    receiverType: bytewiseText("receiver_type").notNull(),
    points: pointsAmount("points").notNull(),
  },
  (table) => [
    primaryKey({ name: "points_sync_rows_pk", columns: [table.syncId, table.page, table.ordinal] }),
  ],
);

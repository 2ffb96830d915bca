// Storage of the points engine (issue 22): its lease, its position, the ledger's current records, the undo journal of
// the blocks a reorg can still remove, and the published snapshots. Everything a step changes is written in one
// transaction (store.ts), so the stored state is always the state after some whole step: a kill at any moment loses
// the step in flight and nothing else.
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** Addresses and keys compared byte-wise: the API's order on every server, whatever its collation. */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text collate "C"' });

/** Points in the smallest unit of the type: numeric(78,0) holds every uint256. */
const pointsAmount = (name: string) => numeric(name, { precision: 78, scale: 0 });

/** A ledger record's value: decimal strings for bigints, so no amount ever passes through a double. */
export type RecordValue = Record<string, string | number | boolean | null>;

/**
 * The engine's lease; one row. Each acquisition of the engine lock increments `epoch`, and every engine transaction
 * first checks it still holds the epoch it acquired (the indexer's scheme, src/indexer/lease.ts).
 */
export const pointsEngineLease = pgTable("points_engine_lease", {
  id: integer("id").primaryKey(),
  epoch: bigint("epoch", { mode: "bigint" }).notNull(),
  holder: text("holder").notNull(),
  acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull(),
});

/** Where the engine is: the block its records are at; one row. */
export const pointsEnginePosition = pgTable("points_engine_position", {
  id: integer("id").primaryKey(),
  blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
  blockHash: text("block_hash").notNull(),
  blockTimestamp: bigint("block_timestamp", { mode: "bigint" }).notNull(),
  /** The lease epoch of the step that wrote it. */
  leaseEpoch: bigint("lease_epoch", { mode: "bigint" }).notNull(),
  /** Σ emitted up to the position (every unit of it credited to some receiver). */
  emitted: pointsAmount("emitted").notNull(),
  /** Blocks per second over the recent steps (a moving average), for `sluice points engine status`. */
  blocksPerSecond: doublePrecision("blocks_per_second").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/**
 * The ledger's current state, one row per record (src/points-engine/ledger: kind + key → value). Stored with
 * fillfactor 70 (migration 0019, which the schema DSL cannot state): a step's updates stay on their pages (HOT), as
 * no indexed column of a record changes.
 */
export const pointsEngineRecords = pgTable(
  "points_engine_records",
  {
    kind: bytewiseText("kind").notNull(),
    key: bytewiseText("key").notNull(),
    /** Set on a record of one vault (or of one receiver in one vault): serving reads a vault's receivers by it. */
    vault: bytewiseText("vault"),
    /** Set on one receiver's record: serving reads a receiver's current points by it. */
    receiver: bytewiseText("receiver"),
    value: jsonb("value").$type<RecordValue>().notNull(),
  },
  (table) => [
    primaryKey({ name: "points_engine_records_pk", columns: [table.kind, table.key] }),
    index("points_engine_records_receiver_idx").on(table.receiver),
    index("points_engine_records_vault_idx").on(table.vault, table.receiver),
  ],
);

/** The blocks the engine stepped to that a reorg can still remove (above finality): the fork point is found here. */
export const pointsEngineBlocks = pgTable("points_engine_blocks", {
  number: bigint("number", { mode: "bigint" }).primaryKey(),
  hash: text("hash").notNull(),
  timestamp: bigint("timestamp", { mode: "bigint" }).notNull(),
});

/**
 * The undo journal: for each block in points_engine_blocks, every record it changed as it was before (null: it did
 * not exist). A rewind to a fork point restores them newest block first.
 */
export const pointsEngineJournal = pgTable(
  "points_engine_journal",
  {
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    kind: bytewiseText("kind").notNull(),
    key: bytewiseText("key").notNull(),
    vault: bytewiseText("vault"),
    receiver: bytewiseText("receiver"),
    before: jsonb("before").$type<RecordValue>(),
  },
  (table) => [
    primaryKey({ name: "points_engine_journal_pk", columns: [table.blockNumber, table.kind, table.key] }),
  ],
);

/** A published snapshot of the own points type at a block: written whole, with its aggregates, in one step. */
export const pointsEngineSnapshots = pgTable("points_engine_snapshots", {
  blockNumber: bigint("block_number", { mode: "bigint" }).primaryKey(),
  blockTimestamp: bigint("block_timestamp", { mode: "bigint" }).notNull(),
  total: pointsAmount("total").notNull(),
  emitted: pointsAmount("emitted").notNull(),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
});

/**
 * Per vault × receiver type points: of a snapshot (block_number = the snapshot's) and, under block_number -1, the
 * current ones at the engine's position (replaced at every step). A vault's total is the sum of its rows.
 */
export const pointsEngineVaultTypeTotals = pgTable(
  "points_engine_vault_type_totals",
  {
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    vault: bytewiseText("vault").notNull(),
    receiverType: bytewiseText("receiver_type").notNull(),
    points: pointsAmount("points").notNull(),
  },
  (table) => [
    primaryKey({
      name: "points_engine_vault_type_totals_pk",
      columns: [table.blockNumber, table.vault, table.receiverType],
    }),
  ],
);

/**
 * The scope the engine counts with, as read at the start block (collaterals, decimals, delegators, initial prices),
 * kept so a restart does not need the chain's state at that block again: a node without archive state, or a devnet
 * anvil reloaded from its state file, can no longer answer reads that far back. `configKey` names the deployment
 * section it was read for; a different section reads it again.
 */
export const pointsEngineScope = pgTable("points_engine_scope", {
  id: integer("id").primaryKey(),
  configKey: text("config_key").notNull(),
  scope: jsonb("scope").notNull(),
  readAt: timestamp("read_at", { withTimezone: true }).notNull(),
});

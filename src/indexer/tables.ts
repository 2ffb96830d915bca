// Storage of the Reactor indexer: which chain the swap state belongs to, the blocks processed (for reorg detection),
// the events seen in them, and the reconciler's per-order funding streaks.
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import type { SettledAmount } from "../orders/tables.ts";

/**
 * The chain all swap and indexer state belongs to; one row. `genesis_hash` holds ChainIdentity.blockHash: the genesis
 * hash on a real network, the hash of the block that deployed the Reactor on the devnet.
 */
export const chainIdentity = pgTable("chain_identity", {
  id: integer("id").primaryKey(),
  chainId: bigint("chain_id", { mode: "number" }).notNull(),
  genesisHash: text("genesis_hash").notNull(),
});

/**
 * The indexer's lease; one row. Each acquisition of the indexer lock increments `epoch`, and every indexer transaction
 * first checks it still holds the epoch it acquired: a replica that lost the lock without noticing writes nothing.
 */
export const indexerLease = pgTable("indexer_lease", {
  id: integer("id").primaryKey(),
  epoch: bigint("epoch", { mode: "bigint" }).notNull(),
  /** host:pid of the process that acquired it, for operators. */
  holder: text("holder").notNull(),
  acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull(),
});

/** Blocks the indexer has fully processed (confirmed at the deployment's depth), newest kept for reorg checks. */
export const indexedBlocks = pgTable("indexed_blocks", {
  number: bigint("number", { mode: "bigint" }).primaryKey(),
  hash: text("hash").notNull(),
  parentHash: text("parent_hash").notNull(),
  timestamp: bigint("timestamp", { mode: "bigint" }).notNull(),
});

/** `Fill` events of the Reactor, by the filled order's hash. */
export const reactorFills = pgTable(
  "reactor_fills",
  {
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    logIndex: integer("log_index").notNull(),
    orderHash: text("order_hash").notNull(),
    txHash: text("tx_hash").notNull(),
    outputs: jsonb("outputs").$type<SettledAmount[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.blockNumber, table.logIndex] }),
    index("reactor_fills_order_hash_idx").on(table.orderHash),
  ],
);

/** `InvalidateNonce` events of the Reactor. */
export const nonceInvalidations = pgTable(
  "nonce_invalidations",
  {
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    logIndex: integer("log_index").notNull(),
    swapper: text("swapper").notNull(),
    nonce: text("nonce").notNull(),
    txHash: text("tx_hash").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.blockNumber, table.logIndex] }),
    index("nonce_invalidations_swapper_nonce_idx").on(table.swapper, table.nonce),
  ],
);

/** Consecutive indexed blocks at which an open order's swapper could not cover amountIn (balance or allowance). */
export const orderFundingStreaks = pgTable("order_funding_streaks", {
  orderId: uuid("order_id").primaryKey(),
  streak: integer("streak").notNull(),
  lastBlock: bigint("last_block", { mode: "bigint" }).notNull(),
});

/**
 * The first indexed block at which an order was not known to be fillable throughout, as far as its swapper decides:
 * amountIn not covered at the block's end (or its funding not read), or perhaps not inside it, a swapper with code or
 * an EIP-7702 authorization, a recipient the output token refuses (src/indexer/fillability.ts). An order with a row
 * here was not fillable throughout, so its expiry is no fade of its solver.
 */
export const orderFundingShortfalls = pgTable("order_funding_shortfalls", {
  orderId: uuid("order_id").primaryKey(),
  firstBlock: bigint("first_block", { mode: "bigint" }).notNull(),
});

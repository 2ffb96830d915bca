// Swap and indexer state belong to one chain, identified by its chain id and the hash of a block that names it
// (DESIGN.md §8): the genesis block on a real network, the block that deployed the Reactor on the devnet. When the
// chain behind the data changes (a fresh devnet, another network), that state is reset with a warning — never mixed.
import { sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { OrderEvents } from "../orders/order-events.ts";
import { deleteAllOrders } from "../orders/settlement.ts";

export interface ChainIdentity {
  chainId: number;
  /**
   * The hash of the block that names the chain: its genesis on a real network; on the devnet the block that deployed
   * the Reactor (anvil's genesis can change across state reloads). Stored in `chain_identity.genesis_hash`.
   */
  blockHash: Hex;
}

/**
 * Every other table whose rows only make sense on one chain (the orders module deletes its own). Points and
 * registries are chain-independent.
 */
const CHAIN_BOUND_TABLES = [
  "order_funding_streaks",
  "order_funding_shortfalls",
  // The fade breaker's per-order outcomes go with their orders; cooldowns and their history stay (they are the
  // operator's record of the solver, not of the chain).
  "solver_order_outcomes",
  "solver_answers",
  // The checks POST /order ran on those quotes (an order's trail).
  "order_checks",
  "solver_answer_stats_pending",
  "solver_answer_stats",
  "solver_order_stats",
  "quotes",
  "quote_requests",
  "reactor_fills",
  "nonce_invalidations",
  "indexed_blocks",
  "discount_cancels",
  "discounts",
];

/**
 * Makes the stored swap state belong to `identity`; returns whether it had to be reset. A reset is published to
 * `orderEvents` once committed.
 */
export async function ensureChainIdentity(
  database: Database,
  identity: ChainIdentity,
  logger: Logger,
  orderEvents: OrderEvents,
): Promise<boolean> {
  const reset = await database.db.transaction(async (tx) => {
    // Serialises replicas starting together.
    await tx.execute(sql`lock table chain_identity in exclusive mode`);
    // Both drivers answer `{ rows }`; drizzle's shared type leaves the result opaque.
    const result = (await tx.execute(
      sql`select chain_id, genesis_hash from chain_identity where id = 1`,
    )) as unknown as {
      rows: Array<{ chain_id: string | number; genesis_hash: string }>;
    };
    const stored = result.rows[0];
    const same =
      stored && Number(stored.chain_id) === identity.chainId && stored.genesis_hash === identity.blockHash;
    if (same) return false;
    if (stored) {
      logger.warn(
        { stored: { chainId: Number(stored.chain_id), blockHash: stored.genesis_hash }, current: identity },
        "the chain behind the stored swap state changed: resetting orders, quotes and indexer state",
      );
      await deleteAllOrders(tx);
      await tx.execute(sql.raw(`truncate table ${CHAIN_BOUND_TABLES.join(", ")}`));
    }
    await tx.execute(sql`
      insert into chain_identity (id, chain_id, genesis_hash) values (1, ${identity.chainId}, ${identity.blockHash})
      on conflict (id) do update set chain_id = excluded.chain_id, genesis_hash = excluded.genesis_hash`);
    return Boolean(stored);
  });
  // The reset emptied the orders table: this process's order readers must not keep answering from before it.
  if (reset) orderEvents.publish([{ kind: "reset" }]);
  return reset;
}

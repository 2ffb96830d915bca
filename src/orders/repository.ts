// Writes of orders: creation decided by the quote id's unique constraint, attempts, and status changes that are
// written once each, together with their history row. Each committed change is signalled to this process's order
// readers (OrderChanges).
import { and, eq, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.ts";
import { OrderChanges } from "./order-changes.ts";
import { type OrderStatus, orderAttempts, orderStatusHistory, orders, type SettledAmount } from "./tables.ts";

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;

export interface StatusChange {
  orderId: string;
  from: OrderStatus;
  to: OrderStatus;
  reason: string;
  blockNumber?: bigint;
  txHash?: string | null;
  settledAmounts?: SettledAmount[];
  at: Date;
}

export class OrderRepository {
  readonly #changes: OrderChanges;

  constructor(private readonly database: Database) {
    this.#changes = OrderChanges.of(database);
  }

  async findByQuoteId(quoteId: string): Promise<OrderRow | undefined> {
    const rows = await this.database.db.select().from(orders).where(eq(orders.quoteId, quoteId)).limit(1);
    return rows[0];
  }

  async findById(orderId: string): Promise<OrderRow | undefined> {
    const rows = await this.database.db.select().from(orders).where(eq(orders.orderId, orderId)).limit(1);
    return rows[0];
  }

  async recordAttempt(orderId: string, requestId: string, at: Date): Promise<void> {
    await this.database.db.insert(orderAttempts).values({ orderId, requestId, createdAt: at });
  }

  /**
   * Inserts the order and its first status row unless its quote already has an order: the quote id's unique
   * constraint decides between concurrent posts. The transaction holds the inserts only (callers check the chain
   * before). Returns the order that holds the quote id: the new one, or the concurrent winner.
   */
  async createOnce(order: NewOrder): Promise<{ order: OrderRow; created: boolean }> {
    const inserted = await this.database.db.transaction(async (tx) => {
      const rows = await tx
        .insert(orders)
        .values(order)
        .onConflictDoNothing({ target: orders.quoteId })
        .returning();
      const row = rows[0];
      if (row) {
        await tx.insert(orderStatusHistory).values({
          orderId: row.orderId,
          fromStatus: null,
          toStatus: "open",
          reason: "created",
          createdAt: order.createdAt,
        });
      }
      return row;
    });
    if (inserted) {
      this.#changes.committed();
      return { order: inserted, created: true };
    }
    const winner = await this.findByQuoteId(order.quoteId);
    if (!winner) throw new Error(`order for quote ${order.quoteId} vanished after a conflict`);
    return { order: winner, created: false };
  }

  /**
   * Applies a status change if the order is still in `from` (a compare-and-set, so concurrent writers cannot
   * record the same change twice). Returns whether it applied. Inside a caller's transaction (`tx`), the caller
   * signals `OrderChanges.committed()` once it has committed.
   */
  async changeStatus(
    change: StatusChange,
    tx: Pick<Db, "update" | "insert"> = this.database.db,
  ): Promise<boolean> {
    const updated = await tx
      .update(orders)
      .set({
        status: change.to,
        updatedAt: change.at,
        ...(change.txHash !== undefined ? { txHash: change.txHash } : {}),
        ...(change.settledAmounts !== undefined ? { settledAmounts: change.settledAmounts } : {}),
      })
      .where(and(eq(orders.orderId, change.orderId), eq(orders.status, change.from)))
      .returning({ orderId: orders.orderId });
    if (updated.length === 0) return false;
    await tx.insert(orderStatusHistory).values({
      orderId: change.orderId,
      fromStatus: change.from,
      toStatus: change.to,
      reason: change.reason,
      blockNumber: change.blockNumber ?? null,
      txHash: change.txHash ?? null,
      createdAt: change.at,
    });
    if (tx === this.database.db) this.#changes.committed();
    return true;
  }

  async history(orderId: string) {
    return this.database.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, orderId))
      .orderBy(orderStatusHistory.id);
  }

  async attempts(orderId: string) {
    return this.database.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, orderId))
      .orderBy(sql`${orderAttempts.id}`);
  }
}

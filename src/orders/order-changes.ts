// Tells this process's order readers that orders changed, once the change has committed. Writers (POST /order, the
// indexer) and readers (GET /orders) are built in different modules from the same Database, so the signal is
// found through the Database object rather than passed around. Other replicas are not told: their readers bound
// their staleness themselves (open-orders-cache.ts).
import type { Database } from "../db/client.ts";

export type OrderChangeListener = () => void;

const byDatabase = new WeakMap<Database, OrderChanges>();

export class OrderChanges {
  readonly #listeners = new Set<OrderChangeListener>();

  /** The signal shared by every writer and reader of `database` in this process. */
  static of(database: Database): OrderChanges {
    let changes = byDatabase.get(database);
    if (!changes) {
      changes = new OrderChanges();
      byDatabase.set(database, changes);
    }
    return changes;
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: OrderChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Call after the transaction that created or changed orders has committed: a reader told earlier could read
   * the old rows again and keep them as fresh.
   */
  committed(): void {
    for (const listener of this.#listeners) listener();
  }
}

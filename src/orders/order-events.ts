// What happened to orders in this process, told to whoever follows them (the open-orders cache, next the order
// stream) once the writing transaction has committed: a reader told earlier could read the old rows again and keep
// them as fresh. One instance per running Sluice, built by the composition root and passed to every writer (order
// service, indexer, chain reset) and reader. Other replicas are not told: their readers bound their staleness
// themselves (open-orders-cache.ts).
import type { OrderStatus } from "./tables.ts";

/** An order was created (`from` null) or changed status; one `order_status_history` row. */
export interface OrderStatusChanged {
  kind: "status";
  /**
   * The id of the order_status_history row the change wrote: a bigserial, increasing in insert order and never
   * reused (a chain reset keeps the sequence), so a resumable stream can use it as its cursor.
   */
  eventId: bigint;
  orderId: string;
  /** The solver the order is assigned to (the per-process solver metrics count by it). */
  solverId: string;
  from: OrderStatus | null;
  to: OrderStatus;
}

/** An order's end status became final (its deciding block is the finality depth deep): not a status change. */
export interface OrderFinalized {
  kind: "finalized";
  orderId: string;
}

/** The chain behind the stored state changed: every order was deleted (chain-identity.ts). */
export interface OrdersReset {
  kind: "reset";
}

export type OrderEvent = OrderStatusChanged | OrderFinalized | OrdersReset;

export type OrderEventListener = (event: OrderEvent) => void;

export class OrderEvents {
  readonly #listeners = new Set<OrderEventListener>();

  /** Calls `listener` with every event published from now on; returns the unsubscribe function. */
  subscribe(listener: OrderEventListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Call only after the transaction that wrote `events` has committed; in the order they were written. */
  publish(events: Iterable<OrderEvent>): void {
    for (const event of events) for (const listener of this.#listeners) listener(event);
  }
}

// What a writer of orders tells the observers that count orders by status (the solver scorecards): every status an
// order takes, with what it left, passed by the code that wrote it in the same transaction. The observers own their
// tables and their SQL; the orders module knows nothing of what they count, only that it must tell them.
import type { DbTransaction } from "../db/client.ts";
import type { OrderStatus } from "./tables.ts";

/** An order's status and the fields that change with it, as a transition left or found them. */
export interface OrderStatusState {
  status: OrderStatus;
  /** When the indexer saw the order's fill; null unless filled (and for fills seen before it was kept). */
  filledAt: Date | null;
  fillBlockNumber: bigint | null;
  updatedAt: Date;
}

/** An order created (`before` null) or changed from one status to another. */
export interface OrderTransition {
  orderId: string;
  solverId: string;
  createdAt: Date;
  /** The quote entry's total and the Order's committed total (tokenOut base units, decimal strings). */
  quotedAmountOut: string;
  committedAmountOut: string;
  before: OrderStatusState | null;
  after: OrderStatusState;
}

/** Told, inside the writer's transaction, of the transitions it wrote (never an empty list). */
export interface OrderTransitionObserver {
  transitioned(tx: DbTransaction, transitions: readonly OrderTransition[]): Promise<void>;
}

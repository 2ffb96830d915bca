// What the chain does to orders, as the indexer applies it: the orders it follows, and status changes written inside
// the indexer's transaction for one block (a Fill, an invalidated nonce, the reconciler's verdicts, the undoing of a
// reorged block); and, when the chain itself changes, the deletion of every order. Each change is a compare-and-set written together with its history row, and comes back as the
// event to publish (OrderEvents) once that transaction has committed.
import { and, desc, eq, gt, inArray, lt, lte, sql } from "drizzle-orm";
import type { Database, DbTransaction } from "../db/client.ts";
import { quoteRequests } from "../swap/tables.ts";
import type { OrderFinalized, OrderStatusChanged } from "./order-events.ts";
import {
  type OrderStatus,
  orderAttempts,
  orderEventClock,
  orderEvents,
  orderStatusHistory,
  orders,
  type SettledAmount,
} from "./tables.ts";

/** The statuses no order leaves by itself: once decided at a final block, the order is over. */
export const END_STATUSES = [
  "filled",
  "expired",
  "cancelled",
  "error",
] as const satisfies readonly OrderStatus[];

export interface StatusChange {
  orderId: string;
  from: OrderStatus;
  to: OrderStatus;
  reason: string;
  blockNumber?: bigint;
  /**
   * The block that decided the new status, when it is not `blockNumber` (a rewind goes back to a status an earlier
   * block decided); null: no block (open).
   */
  decidedAt?: bigint | null;
  txHash?: string | null;
  settledAmounts?: SettledAmount[];
  at: Date;
}

/** An open order as the reconciler judges it. */
export interface OpenOrder {
  orderId: string;
  swapper: string;
  tokenIn: string;
  nonce: string;
  amountIn: string;
  deadline: number;
  orderHash: string;
  /** The committed outputs: whether the output token accepts each recipient is judged at every block. */
  outputs: Array<{ token: string; recipient: string }>;
  /**
   * The block the order's quote was priced at (null if not known): it and every block before it were mined before the
   * order existed, so none of them can hold a fill of it.
   */
  quotedAtBlock: bigint | null;
}

export interface SettlingFill {
  orderHash: string;
  blockNumber: bigint;
  txHash: string;
  settledAmounts: SettledAmount[];
  at: Date;
}

/** An order as a status change left it: what its observers (the fade ledger) judge its end by. */
export interface ChangedOrder {
  orderId: string;
  solverId: string;
  swapper: string;
  status: OrderStatus;
  deadline: number;
  createdAt: Date;
}

/** A status change as written: its event (published once the transaction commits) and the order it left. */
export interface AppliedChange {
  event: OrderStatusChanged;
  order: ChangedOrder;
}

export interface NonceInvalidation {
  swapper: string;
  nonce: string;
  blockNumber: bigint;
  txHash: string;
  at: Date;
}

export class OrderSettlement {
  constructor(private readonly database: Database) {}

  /** Whether any order can still be changed by the chain (open, or waiting for funds). */
  async anyTracked(): Promise<boolean> {
    const rows = await this.database.query<{ one: number }>(
      "select 1 as one from orders where status in ('open', 'insufficient-funds') limit 1",
    );
    return rows.length > 0;
  }

  /** Whether any order has an end status not final yet (the finalizer's working set). */
  async anyUnfinalized(): Promise<boolean> {
    const rows = await this.database.query<{ one: number }>(
      "select 1 as one from orders where not finalized and status in ('filled', 'expired', 'cancelled', 'error') limit 1",
    );
    return rows.length > 0;
  }

  async open(): Promise<OpenOrder[]> {
    return this.database.db
      .select({
        orderId: orders.orderId,
        swapper: orders.swapper,
        tokenIn: orders.tokenIn,
        nonce: orders.nonce,
        amountIn: orders.amountIn,
        deadline: orders.deadline,
        orderHash: orders.orderHash,
        outputs: orders.outputs,
        quotedAtBlock: quoteRequests.inventoryBlock,
      })
      .from(orders)
      .leftJoin(quoteRequests, eq(quoteRequests.requestId, orders.quoteRequestId))
      .where(eq(orders.status, "open"));
  }

  /** Marks the order `fill` settled filled, whatever its status: a Fill always wins. */
  async fill(tx: DbTransaction, fill: SettlingFill): Promise<AppliedChange | undefined> {
    const rows = await tx
      .select({ orderId: orders.orderId, status: orders.status })
      .from(orders)
      .where(eq(orders.orderHash, fill.orderHash));
    const row = rows[0];
    if (!row || row.status === "filled") return undefined;
    return this.change(tx, {
      orderId: row.orderId,
      from: row.status,
      to: "filled",
      reason: "Fill event",
      blockNumber: fill.blockNumber,
      txHash: fill.txHash,
      settledAmounts: fill.settledAmounts,
      at: fill.at,
    });
  }

  /**
   * Cancels the swapper's orders on the invalidated nonce that could still be filled: open ones, and those waiting
   * for funds (a Fill would still settle them, so a nonce invalidation is their cancel too; POST /cancel serves both).
   */
  async cancelNonce(tx: DbTransaction, invalidation: NonceInvalidation): Promise<AppliedChange[]> {
    const rows = await tx
      .select({ orderId: orders.orderId, status: orders.status })
      .from(orders)
      .where(
        and(
          eq(orders.swapper, invalidation.swapper),
          eq(orders.nonce, invalidation.nonce),
          inArray(orders.status, ["open", "insufficient-funds"]),
        ),
      );
    const applied: AppliedChange[] = [];
    for (const row of rows) {
      const change = await this.change(tx, {
        orderId: row.orderId,
        from: row.status,
        to: "cancelled",
        reason: "swapper invalidated the nonce",
        blockNumber: invalidation.blockNumber,
        txHash: invalidation.txHash,
        at: invalidation.at,
      });
      if (change) applied.push(change);
    }
    return applied;
  }

  /**
   * Undoes every status change made at a block above `forkPoint`: each order goes back to the status it had before
   * its first such change (itself recorded as a change, with the reorg as its reason).
   */
  async rewindAbove(tx: DbTransaction, forkPoint: bigint, at: Date): Promise<OrderStatusChanged[]> {
    const changes = await tx
      .select()
      .from(orderStatusHistory)
      .where(gt(orderStatusHistory.blockNumber, forkPoint))
      .orderBy(orderStatusHistory.id);
    const firstChange = new Map<string, (typeof changes)[number]>();
    for (const change of changes)
      if (!firstChange.has(change.orderId)) firstChange.set(change.orderId, change);
    const events: OrderStatusChanged[] = [];
    for (const [orderId, change] of firstChange) {
      const current = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.orderId, orderId));
      const from = current[0]?.status;
      const to = change.fromStatus;
      if (!from || !to || from === to) continue;
      // The status it goes back to was decided by the change before this one (at a block at or below the fork).
      const [before] = await tx
        .select({ blockNumber: orderStatusHistory.blockNumber })
        .from(orderStatusHistory)
        .where(and(eq(orderStatusHistory.orderId, orderId), lt(orderStatusHistory.id, change.id)))
        .orderBy(desc(orderStatusHistory.id))
        .limit(1);
      const applied = await this.change(tx, {
        orderId,
        from,
        to,
        reason: `reorg: block ${change.blockNumber} left the chain (back to block ${forkPoint})`,
        decidedAt: to === "open" ? null : (before?.blockNumber ?? null),
        at,
        ...(to !== "filled" ? { txHash: null, settledAmounts: [] } : {}),
      });
      if (applied) events.push(applied.event);
    }
    return events;
  }

  /**
   * The chain behind the stored orders changed (chain-identity.ts): every order goes, with its history, attempts and
   * stream events. The event ids go on from where they were, and every id handed out so far counts as pruned: a
   * stream resuming from one gets the (now empty) snapshot again instead of a resume across the reset.
   */
  async deleteAll(tx: DbTransaction): Promise<void> {
    await tx.execute(sql`truncate table ${orderStatusHistory}, ${orderAttempts}, ${orderEvents}, ${orders}`);
    // Every id handed out so far, committed or about to be, counts as pruned. A sequence never used yet reports its
    // start value as last_value (with is_called false): that id is still to come and must not count.
    await tx.execute(
      sql`update ${orderEventClock} set pruned_through = greatest(pruned_through,
        (select case when is_called then last_value else last_value - 1 end from order_events_id_seq))`,
    );
  }

  /**
   * Marks final every order whose end status was decided at or below `finalBlock` (and is not final yet). Not a
   * status change: no history row; the order log records it (its trigger) like any other change of the row.
   */
  async finalize(tx: DbTransaction, finalBlock: bigint, at: Date): Promise<OrderFinalized[]> {
    const rows = await tx
      .update(orders)
      .set({ finalized: true, updatedAt: at })
      .where(
        and(
          eq(orders.finalized, false),
          inArray(orders.status, END_STATUSES),
          lte(orders.statusBlockNumber, finalBlock),
        ),
      )
      .returning({ orderId: orders.orderId });
    return rows.map((row) => ({ kind: "finalized", orderId: row.orderId }));
  }

  /**
   * Applies a status change if the order is still in `from` (a compare-and-set, so concurrent writers cannot
   * record the same change twice), with its history row. Returns its event and the order as the change left it, or
   * undefined when it did not apply.
   */
  async change(tx: DbTransaction, change: StatusChange): Promise<AppliedChange | undefined> {
    const updated = await tx
      .update(orders)
      .set({
        status: change.to,
        updatedAt: change.at,
        // A new status is not final yet, whatever the previous one was.
        finalized: false,
        statusBlockNumber: change.decidedAt !== undefined ? change.decidedAt : (change.blockNumber ?? null),
        fillBlockNumber:
          change.to === "filled"
            ? change.decidedAt !== undefined
              ? change.decidedAt
              : (change.blockNumber ?? null)
            : null,
        filledAt: change.to === "filled" ? change.at : null,
        ...(change.txHash !== undefined ? { txHash: change.txHash } : {}),
        ...(change.settledAmounts !== undefined ? { settledAmounts: change.settledAmounts } : {}),
      })
      .where(and(eq(orders.orderId, change.orderId), eq(orders.status, change.from)))
      .returning({
        orderId: orders.orderId,
        solverId: orders.solverId,
        swapper: orders.swapper,
        deadline: orders.deadline,
        createdAt: orders.createdAt,
      });
    const row = updated[0];
    if (!row) return undefined;
    const [history] = await tx
      .insert(orderStatusHistory)
      .values({
        orderId: change.orderId,
        fromStatus: change.from,
        toStatus: change.to,
        reason: change.reason,
        blockNumber: change.blockNumber ?? null,
        txHash: change.txHash ?? null,
        createdAt: change.at,
      })
      .returning({ id: orderStatusHistory.id });
    return {
      event: {
        kind: "status",
        eventId: history!.id,
        orderId: change.orderId,
        solverId: row.solverId,
        from: change.from,
        to: change.to,
      },
      order: { ...row, status: change.to },
    };
  }
}

// What the chain does to orders, as the indexer applies it: the orders it follows, and status changes written inside
// the indexer's transaction for one block (a Fill, an invalidated nonce, the reconciler's verdicts, the undoing of a
// reorged block); and, when the chain itself changes, the deletion of every order. Each change is one statement: the
// compare-and-set with its history row, which comes back as the event to publish (OrderEvents) once that transaction
// has committed, and the transition the order's observers are told of in the same transaction (transitions.ts).
import { and, desc, eq, gt, inArray, lt, lte, type SQL, sql } from "drizzle-orm";
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
import type { OrderTransition, OrderTransitionObserver } from "./transitions.ts";

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

/** A row of the change statement (changeStatement): every value as text, whichever driver answers. */
interface ChangedRow extends Record<string, unknown> {
  event_id: string;
  order_id: string;
  solver_id: string;
  swapper: string;
  deadline: string;
  created_at: string;
  quoted_amount_out: string;
  committed_amount_out: string;
  from_status: OrderStatus;
  from_filled_at: string | null;
  from_fill_block_number: string | null;
  from_updated_at: string;
}

export interface NonceInvalidation {
  swapper: string;
  nonce: string;
  blockNumber: bigint;
  txHash: string;
  at: Date;
}

export class OrderSettlement {
  constructor(
    private readonly database: Database,
    /** Told of every status change, in its transaction (the scorecard counts). */
    private readonly observer: OrderTransitionObserver,
  ) {}

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
    return this.#apply(tx, sql`order_hash = ${fill.orderHash} and status <> 'filled'`, {
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
    const { orderId, from, ...rest } = change;
    return this.#apply(tx, sql`order_id = ${orderId} and status = ${from}`, rest);
  }

  /**
   * The change of the order `which` finds, if any: one statement, whose answer is the event and the transition, then
   * the observer's write.
   */
  async #apply(
    tx: DbTransaction,
    which: SQL,
    change: Omit<StatusChange, "orderId" | "from">,
  ): Promise<AppliedChange | undefined> {
    const result = (await tx.execute(changeStatement(which, change))) as unknown as { rows: ChangedRow[] };
    const row = result.rows[0];
    if (!row) return undefined;
    const after = {
      status: change.to,
      filledAt: change.to === "filled" ? change.at : null,
      fillBlockNumber: change.to === "filled" ? decidingBlock(change) : null,
      updatedAt: change.at,
    };
    const transition: OrderTransition = {
      orderId: row.order_id,
      solverId: row.solver_id,
      createdAt: new Date(row.created_at),
      quotedAmountOut: row.quoted_amount_out,
      committedAmountOut: row.committed_amount_out,
      before: {
        status: row.from_status,
        filledAt: row.from_filled_at === null ? null : new Date(row.from_filled_at),
        fillBlockNumber: row.from_fill_block_number === null ? null : BigInt(row.from_fill_block_number),
        updatedAt: new Date(row.from_updated_at),
      },
      after,
    };
    await this.observer.transitioned(tx, [transition]);
    return {
      event: {
        kind: "status",
        eventId: BigInt(row.event_id),
        orderId: row.order_id,
        solverId: row.solver_id,
        from: row.from_status,
        to: change.to,
      },
      order: {
        orderId: row.order_id,
        solverId: row.solver_id,
        swapper: row.swapper,
        status: change.to,
        deadline: Number(row.deadline),
        createdAt: transition.createdAt,
      },
    };
  }
}

/**
 * The chain behind the stored orders changed (chain-identity.ts): every order goes, with its history, attempts and
 * stream events. The event ids go on from where they were, and every id handed out so far counts as pruned: a
 * stream resuming from one gets the (now empty) snapshot again instead of a resume across the reset.
 */
export async function deleteAllOrders(tx: DbTransaction): Promise<void> {
  await tx.execute(sql`truncate table ${orderStatusHistory}, ${orderAttempts}, ${orderEvents}, ${orders}`);
  // Every id handed out so far, committed or about to be, counts as pruned. A sequence never used yet reports its
  // start value as last_value (with is_called false): that id is still to come and must not count.
  await tx.execute(
    sql`update ${orderEventClock} set pruned_through = greatest(pruned_through,
      (select case when is_called then last_value else last_value - 1 end from order_events_id_seq))`,
  );
}

/** The block that decided the new status: `decidedAt` when given (a rewind), else the change's block; null: none. */
function decidingBlock(change: Pick<StatusChange, "decidedAt" | "blockNumber">): bigint | null {
  return change.decidedAt !== undefined ? change.decidedAt : (change.blockNumber ?? null);
}

const text = (value: bigint | null) => (value === null ? null : value.toString());

/**
 * A status change as one statement: the order `which` finds, locked (the compare-and-set: a concurrent change of its
 * status makes it find nothing), updated, and its history row inserted, answering the history row's id (the event
 * id), the order's fields its observers need and the fields as they were before. One round trip instead of three.
 */
function changeStatement(which: SQL, change: Omit<StatusChange, "orderId" | "from">): SQL {
  const at = change.at.toISOString();
  const decided = text(decidingBlock(change));
  const filled = change.to === "filled";
  return sql`with found as (
  select order_id, status, filled_at, fill_block_number, updated_at from orders where ${which} for update
), changed as (
  update orders as o set
    status = ${change.to}, updated_at = ${at}::timestamptz,
    -- A new status is not final yet, whatever the previous one was.
    finalized = false, status_block_number = ${decided}::bigint,
    fill_block_number = ${filled ? decided : null}::bigint, filled_at = ${filled ? at : null}::timestamptz${
      change.txHash !== undefined ? sql`, tx_hash = ${change.txHash}` : sql``
    }${
      change.settledAmounts !== undefined
        ? sql`, settled_amounts = ${JSON.stringify(change.settledAmounts)}::jsonb`
        : sql``
    }
  from found where o.order_id = found.order_id
  returning o.order_id, o.solver_id, o.swapper, o.deadline, o.created_at, o.quoted_amount_out, o.committed_amount_out,
    found.status as from_status, found.filled_at as from_filled_at, found.fill_block_number as from_fill_block_number,
    found.updated_at as from_updated_at
), history as (
  insert into order_status_history (order_id, from_status, to_status, reason, block_number, tx_hash, created_at)
  select order_id, from_status, ${change.to}, ${change.reason}, ${text(change.blockNumber ?? null)}::bigint,
    ${change.txHash ?? null}, ${at}::timestamptz
  from changed
  returning id
)
select history.id::text as event_id, changed.order_id::text, changed.solver_id, changed.swapper,
  changed.deadline::text, changed.created_at::text, changed.quoted_amount_out::text,
  changed.committed_amount_out::text, changed.from_status, changed.from_filled_at::text,
  changed.from_fill_block_number::text, changed.from_updated_at::text
from changed cross join history`;
}

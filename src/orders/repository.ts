// Orders as POST /order sees them: creation decided by the quote id's unique constraint (published to OrderEvents once
// committed, and passed to the order observers in its transaction), the calls that reached an existing order, and
// reads by id. What the chain does to orders is in settlement.ts.
import { eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { pipelining, together } from "../db/pipeline.ts";
import type { OrderEvents } from "./order-events.ts";
import { orderAttempts, orderChecks, orderStatusHistory, orders } from "./tables.ts";
import type { OrderTransitionObserver } from "./transitions.ts";

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
/** A check POST /order ran (the swapper's signature, the co-signature), for the order's trail. */
export type OrderCheck = Omit<typeof orderChecks.$inferInsert, "id">;

export class OrderRepository {
  constructor(
    private readonly database: Database,
    private readonly events: OrderEvents,
    /** Told of every order created, in its transaction (the scorecard counts). */
    private readonly observer: OrderTransitionObserver,
  ) {}

  async findByQuoteId(quoteId: string): Promise<OrderRow | undefined> {
    const rows = await this.database.db.select().from(orders).where(eq(orders.quoteId, quoteId)).limit(1);
    return rows[0];
  }

  /** The orders of these quotes (by the quote id's unique index): which entries of a round became orders. */
  async findByQuoteIds(
    quoteIds: readonly string[],
  ): Promise<Array<Pick<OrderRow, "orderId" | "quoteId" | "requestId" | "solverId">>> {
    if (quoteIds.length === 0) return [];
    return this.database.db
      .select({
        orderId: orders.orderId,
        quoteId: orders.quoteId,
        requestId: orders.requestId,
        solverId: orders.solverId,
      })
      .from(orders)
      .where(inArray(orders.quoteId, [...quoteIds]));
  }

  async findById(orderId: string): Promise<OrderRow | undefined> {
    const rows = await this.database.db.select().from(orders).where(eq(orders.orderId, orderId)).limit(1);
    return rows[0];
  }

  /** What POST /cancel needs of an order (not its signatures or encoding), by its primary key. */
  async findCancelFacts(
    orderId: string,
  ): Promise<Pick<OrderRow, "status" | "swapper" | "nonce" | "deadline"> | undefined> {
    const rows = await this.database.db
      .select({
        status: orders.status,
        swapper: orders.swapper,
        nonce: orders.nonce,
        deadline: orders.deadline,
      })
      .from(orders)
      .where(eq(orders.orderId, orderId))
      .limit(1);
    return rows[0];
  }

  /** Records checks a post ran without reaching an order (a refused signature): the trail shows them. */
  async recordChecks(checks: readonly OrderCheck[]): Promise<void> {
    if (checks.length > 0) await this.database.db.insert(orderChecks).values([...checks]);
  }

  async recordAttempt(orderId: string, requestId: string, at: Date): Promise<void> {
    await this.database.db.insert(orderAttempts).values({ orderId, requestId, createdAt: at });
  }

  /**
   * Inserts the order and its first status row unless its quote already has an order: the quote id's unique
   * constraint decides between concurrent posts. The transaction holds the inserts only (callers check the chain
   * before). Returns the order that holds the quote id: the new one, or the concurrent winner.
   */
  async createOnce(
    order: NewOrder,
    /** The checks this post ran on the way, stored in the same transaction whichever post wins. */
    checks: readonly OrderCheck[] = [],
  ): Promise<{ order: OrderRow; created: boolean }> {
    const inserted = await this.database.db.transaction((tx) =>
      pipelining(tx, async () => {
        // No conflict target: every unique index is an arbiter. Concurrent posts of one quote build the same Order,
        // so the loser's row collides on the order hash too, and PostgreSQL raises a unique violation for a conflict
        // on any index the statement does not name (when the winner commits between the loser's arbiter check and
        // its index entries). The order hash is a function of the quote's Request (its nonce), so either conflict
        // means the quote already has its order. The checks and the order need nothing of each other: sent together.
        const [, rows] = await together([
          checks.length > 0
            ? tx
                .insert(orderChecks)
                .values([...checks])
                .execute()
            : Promise.resolve(),
          tx.insert(orders).values(order).onConflictDoNothing().returning().execute(),
        ]);
        const row = rows[0];
        if (!row) return undefined;
        // The history row and the observers' counts need only the order: sent together too.
        const [[history]] = await together([
          tx
            .insert(orderStatusHistory)
            .values({
              orderId: row.orderId,
              fromStatus: null,
              toStatus: "open",
              reason: "created",
              requestId: order.requestId,
              createdAt: order.createdAt,
            })
            .returning({ id: orderStatusHistory.id })
            .execute(),
          this.observer.transitioned(tx, [
            {
              orderId: row.orderId,
              solverId: row.solverId,
              createdAt: row.createdAt,
              quotedAmountOut: row.quotedAmountOut,
              committedAmountOut: row.committedAmountOut,
              before: null,
              after: {
                status: row.status,
                filledAt: row.filledAt,
                fillBlockNumber: row.fillBlockNumber,
                updatedAt: row.updatedAt,
              },
            },
          ]),
        ]);
        return { row, eventId: history!.id };
      }),
    );
    if (inserted) {
      const { row, eventId } = inserted;
      this.events.publish([
        { kind: "status", eventId, orderId: row.orderId, solverId: row.solverId, from: null, to: "open" },
      ]);
      return { order: row, created: true };
    }
    const winner = await this.findByQuoteId(order.quoteId);
    if (!winner) throw new Error(`order for quote ${order.quoteId} vanished after a conflict`);
    return { order: winner, created: false };
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

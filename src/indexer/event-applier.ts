// What one confirmed block does to orders: the Reactor's Fill and InvalidateNonce events first, then the reconciler's
// judgement of every other open order at that block (DESIGN.md §7), and on a reorg the undoing of all of it. The
// orders themselves are written through the orders module (OrderSettlement) in the block's transaction, and the
// changes are published to OrderEvents once it has committed. How blocks are followed is block-follower.ts's.
import { eq, gt, inArray } from "drizzle-orm";
import { type Address, type Hex, type ParseEventLogsReturnType, parseEventLogs } from "viem";
import { reactorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { hashOrder } from "../chain/order.ts";
import type { Clock } from "../clock.ts";
import type { DbTransaction } from "../db/client.ts";
import { together } from "../db/pipeline.ts";
import type { OrderEvents, OrderStatusChanged } from "../orders/order-events.ts";
import type { AppliedChange, ChangedOrder, OpenOrder, OrderSettlement } from "../orders/settlement.ts";
import type { OrderStatus, SettledAmount } from "../orders/tables.ts";
import type { BlockApplier, FollowedBlock } from "./block-follower.ts";
import { unfillableInBlock } from "./fillability.ts";
import { FundingReader, type FundingState } from "./funding-reader.ts";
import { judgeOpenOrder } from "./reconcile.ts";
import { type SwapperActivity, SwapperActivityReader } from "./swapper-activity.ts";
import { nonceInvalidations, orderFundingShortfalls, orderFundingStreaks, reactorFills } from "./tables.ts";

/** An order a block brought to an end status, as the settlement wrote it and as the reconciler judged it. */
export interface EndedOrder extends ChangedOrder {
  /**
   * The reconciler noted a block at which the order was not known to be fillable throughout. Read for an expiry only,
   * the one end it can excuse: false for every other end.
   */
  shortfall: boolean;
}

/**
 * Told, inside a block's transaction, which orders the block brought to an end status, and on a reorg the fork point
 * (the fade breaker, src/cooldowns). What it returns runs once that transaction has committed.
 */
export interface OrderEndObserver {
  ended(
    tx: DbTransaction,
    block: FollowedBlock,
    orders: readonly EndedOrder[],
    at: Date,
  ): Promise<() => void>;
  rewound(tx: DbTransaction, forkPoint: bigint): Promise<void>;
}

const END_STATUSES: ReadonlySet<OrderStatus> = new Set(["filled", "expired", "cancelled", "error"]);

export interface ReactorEventApplierOptions {
  client: ChainPublicClient;
  reactor: Address;
  multicall?: Address;
  settlement: OrderSettlement;
  orderEvents: OrderEvents;
  clock: Clock;
  endObserver?: OrderEndObserver;
}

/** What a block's transaction needs, read from the chain and the database before it. */
export interface BlockReads {
  events: ParseEventLogsReturnType<typeof reactorAbi, undefined, true>;
  /** The orders open before the block, and their funding at it (null where the read failed). */
  open: OpenOrder[];
  funding: Array<FundingState | null>;
  /** What their swappers did inside the block that its end does not show. */
  activity: SwapperActivity;
  at: Date;
}

export class ReactorEventApplier implements BlockApplier<BlockReads, OrderStatusChanged[]> {
  readonly #funding: FundingReader;
  readonly #activity: SwapperActivityReader;
  /** What the end observer asked to run once the current block's transaction has committed. */
  #afterCommit: Array<() => void> = [];

  constructor(private readonly options: ReactorEventApplierOptions) {
    this.#funding = new FundingReader(options.client, options.reactor, options.multicall);
    this.#activity = new SwapperActivityReader(options.client, options.reactor, options.multicall);
  }

  needsEveryBlock(): Promise<boolean> {
    return this.options.settlement.anyTracked();
  }

  async read(block: FollowedBlock): Promise<BlockReads> {
    const { client, reactor } = this.options;
    // The block's events and its open orders' state are read side by side: neither needs the other.
    const [logs, { open, funding, activity }] = await Promise.all([
      client.getLogs({ address: reactor, blockHash: block.hash }),
      this.#readOpenOrders(block),
    ]);
    const events = parseEventLogs({ abi: reactorAbi, logs, strict: true });
    return { events, open, funding, activity, at: this.options.clock.now() };
  }

  /** The orders open before the block, their funding at it and their swappers' activity inside it. */
  async #readOpenOrders(block: FollowedBlock): Promise<Omit<BlockReads, "events" | "at">> {
    const open = await this.options.settlement.open();
    const [funding, activity] = await Promise.all([
      this.#funding.read(
        open.map((order) => ({
          swapper: order.swapper as Address,
          tokenIn: order.tokenIn as Address,
          nonce: BigInt(order.nonce),
          outputs: order.outputs.map((output) => ({
            token: output.token as Address,
            recipient: output.recipient as Address,
          })),
        })),
        block.number,
      ),
      this.#activity.read(block, open),
    ]);
    return { open, funding, activity };
  }

  /** The block's events first, then the reconciler's judgement of every open order they did not touch. */
  async apply(tx: DbTransaction, block: FollowedBlock, reads: BlockReads): Promise<OrderStatusChanged[]> {
    const { settlement } = this.options;
    const { at } = reads;
    this.#afterCommit = [];
    const changes: AppliedChange[] = [];
    for (const event of reads.events) {
      const txHash = event.transactionHash as Hex;
      const logIndex = event.logIndex as number;
      if (event.eventName === "Fill") {
        const order = event.args.order;
        const orderHash = hashOrder(order);
        const settled: SettledAmount[] = order.outputs.map((output) => ({
          token: output.token.toLowerCase(),
          amount: output.amount.toString(),
          recipient: output.recipient.toLowerCase(),
          txHash,
        }));
        // The fill's row and the order's change need nothing of each other: sent together, one round trip.
        const [, change] = await together([
          tx
            .insert(reactorFills)
            .values({ blockNumber: block.number, logIndex, orderHash, txHash, outputs: settled })
            .execute(),
          settlement.fill(tx, { orderHash, blockNumber: block.number, txHash, settledAmounts: settled, at }),
        ]);
        if (change) changes.push(change);
      } else if (event.eventName === "InvalidateNonce") {
        const swapper = event.args.swapper.toLowerCase();
        const nonce = event.args.nonce.toString();
        const [, cancelled] = await together([
          tx
            .insert(nonceInvalidations)
            .values({ blockNumber: block.number, logIndex, swapper, nonce, txHash })
            .execute(),
          settlement.cancelNonce(tx, { swapper, nonce, blockNumber: block.number, txHash, at }),
        ]);
        changes.push(...cancelled);
      }
    }
    const touched = new Set(changes.map((change) => change.order.orderId));
    changes.push(...(await this.#reconcile(tx, block, reads, touched)));
    const ended = changes.filter((change) => END_STATUSES.has(change.order.status));
    if (ended.length > 0 && this.options.endObserver)
      this.#afterCommit.push(
        await this.options.endObserver.ended(tx, block, await this.#withShortfalls(tx, ended), at),
      );
    return changes.map((change) => change.event);
  }

  /**
   * The ended orders with the reconciler's verdict on whether each was fillable throughout. Only an expiry is judged
   * by it (a fill, a cancel or an error is never a fade): the verdicts are read for the expired orders alone, and a
   * block that expired none (a fill's) reads nothing.
   */
  async #withShortfalls(tx: DbTransaction, ended: readonly AppliedChange[]): Promise<EndedOrder[]> {
    const expired = ended.filter((change) => change.order.status === "expired");
    const rows =
      expired.length === 0
        ? []
        : await tx
            .select({ orderId: orderFundingShortfalls.orderId })
            .from(orderFundingShortfalls)
            .where(
              inArray(
                orderFundingShortfalls.orderId,
                expired.map((change) => change.order.orderId),
              ),
            );
    const short = new Set(rows.map((row) => row.orderId));
    return ended.map(({ order }) => ({ ...order, shortfall: short.has(order.orderId) }));
  }

  /** Undoes the order changes, events and funding streaks of the blocks above `forkPoint`. */
  async rewind(tx: DbTransaction, forkPoint: bigint): Promise<OrderStatusChanged[]> {
    this.#afterCommit = [];
    const changes = await this.options.settlement.rewindAbove(tx, forkPoint, this.options.clock.now());
    await this.options.endObserver?.rewound(tx, forkPoint);
    await tx.delete(orderFundingShortfalls).where(gt(orderFundingShortfalls.firstBlock, forkPoint));
    await tx.delete(reactorFills).where(gt(reactorFills.blockNumber, forkPoint));
    await tx.delete(nonceInvalidations).where(gt(nonceInvalidations.blockNumber, forkPoint));
    await tx.delete(orderFundingStreaks);
    return changes;
  }

  committed(changes: OrderStatusChanged[]): void {
    this.options.orderEvents.publish(changes);
    const after = this.#afterCommit;
    this.#afterCommit = [];
    for (const run of after) run();
  }

  async #reconcile(
    tx: DbTransaction,
    block: FollowedBlock,
    { open, funding, activity, at }: BlockReads,
    touched: ReadonlySet<string>,
  ): Promise<AppliedChange[]> {
    const changes: AppliedChange[] = [];
    const candidates = open.filter((order) => !touched.has(order.orderId));
    if (candidates.length === 0) return changes;
    const streakRows = await tx
      .select()
      .from(orderFundingStreaks)
      .where(
        inArray(
          orderFundingStreaks.orderId,
          candidates.map((order) => order.orderId),
        ),
      );
    const streaks = new Map(streakRows.map((row) => [row.orderId, row]));

    for (const [index, order] of open.entries()) {
      if (touched.has(order.orderId)) continue;
      const state = funding[index];
      // What this block says about whether the order was fillable counts only if a fill of it could be in the block:
      // mined after its quote (before it, the order did not exist) and not after its deadline.
      const mayHoldFill =
        (order.quotedAtBlock === null || block.number > order.quotedAtBlock) &&
        block.timestamp <= BigInt(order.deadline);
      const shortfall = () =>
        mayHoldFill ? this.#shortfall(tx, order.orderId, block.number) : Promise.resolve();
      // A failed read says nothing about the order: judge it at the next block. Its funding at this block is not known
      // to have covered amountIn, so its expiry can no longer count as a fade.
      if (!state) {
        await shortfall();
        continue;
      }
      const previous = streaks.get(order.orderId);
      const previousStreak = previous && previous.lastBlock === block.number - 1n ? previous.streak : 0;
      const verdict = judgeOpenOrder(
        { deadline: BigInt(order.deadline), amountIn: BigInt(order.amountIn), previousStreak },
        state,
        block.timestamp,
      );
      const change = async (to: OrderStatus, reason: string) => {
        const changed = await this.options.settlement.change(tx, {
          orderId: order.orderId,
          from: "open",
          to,
          reason,
          blockNumber: block.number,
          at,
        });
        if (changed) changes.push(changed);
      };
      // Funded at the block's end, but perhaps not where a fill would have landed inside it: the order was not
      // fillable throughout, so its expiry is no fade (its status stays as the block's end decides).
      if (
        verdict.kind === "funded" &&
        unfillableInBlock({ ...order, amountIn: BigInt(order.amountIn) }, state, activity) !== null
      )
        await shortfall();
      if (verdict.kind === "expired" || verdict.kind === "error") {
        await change(verdict.kind, verdict.reason);
      } else if (verdict.kind === "underfunded" && verdict.becomesInsufficient) {
        await shortfall();
        await change("insufficient-funds", verdict.reason);
      } else if (verdict.kind === "underfunded") {
        await shortfall();
        await tx
          .insert(orderFundingStreaks)
          .values({ orderId: order.orderId, streak: verdict.streak, lastBlock: block.number })
          .onConflictDoUpdate({
            target: orderFundingStreaks.orderId,
            set: { streak: verdict.streak, lastBlock: block.number },
          });
        continue;
      }
      if (previous)
        await tx.delete(orderFundingStreaks).where(eq(orderFundingStreaks.orderId, order.orderId));
    }
    return changes;
  }

  /**
   * Notes the first block at which the order was not known to be fillable throughout, as far as its swapper decides
   * (kept through later blocks): its expiry is then no fade.
   */
  async #shortfall(tx: DbTransaction, orderId: string, blockNumber: bigint): Promise<void> {
    await tx
      .insert(orderFundingShortfalls)
      .values({ orderId, firstBlock: blockNumber })
      .onConflictDoNothing();
  }
}

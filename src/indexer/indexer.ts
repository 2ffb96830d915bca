// Follows the Reactor's events block by block at the deployment's confirmation depth, applies them to orders, and
// runs the reconciler once per indexed block. Block hashes are stored so a reorg is noticed and rewound: every change
// made at a removed block is undone (and recorded as such), then the new blocks are indexed. A chain that is now
// shorter than what was indexed (a devnet whose anvil was killed before it saved its state) is a reorg too: the
// indexed blocks it lacks left the chain. One replica indexes at a time: it holds the indexer lease (lease.ts), and
// every write checks the lease in its own transaction. A replica that loses the lease (its database session dropped,
// or another replica took over) stops indexing and tries to acquire it again at every poll.
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { type Address, BlockNotFoundError, type Hex, parseEventLogs } from "viem";
import { reactorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { hashOrder } from "../chain/order.ts";
import type { Clock } from "../clock.ts";
import type { Database, Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { OrderChanges } from "../orders/order-changes.ts";
import { OrderRepository } from "../orders/repository.ts";
import { type OrderStatus, orderStatusHistory, orders, type SettledAmount } from "../orders/tables.ts";
import { FundingReader } from "./funding-reader.ts";
import { IndexerLease, IndexerLeaseHeldElsewhereError, IndexerLeaseLostError } from "./lease.ts";
import { judgeOpenOrder } from "./reconcile.ts";
import { indexedBlocks, nonceInvalidations, orderFundingStreaks, reactorFills } from "./tables.ts";

/** Blocks indexed per step at most, so one step never holds the loop for long. */
const MAX_BLOCKS_PER_STEP = 100;
/** Indexed blocks kept for reorg detection. */
const KEPT_BLOCKS = 512n;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface IndexerOptions {
  database: Database;
  client: ChainPublicClient;
  reactor: Address;
  multicall?: Address;
  confirmationDepth: number;
  /** The first block to index when nothing is indexed yet. */
  startBlock: bigint;
  clock: Clock;
  logger: Logger;
  pollIntervalMs?: number;
}

export interface StepResult {
  indexedTo: bigint | null;
  blocks: number;
  rewoundTo?: bigint;
}

interface BlockInfo {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
}

export class ReactorIndexer {
  readonly #orders: OrderRepository;
  readonly #funding: FundingReader;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #lease: IndexerLease | null = null;
  #stopped = true;

  constructor(private readonly options: IndexerOptions) {
    this.#orders = new OrderRepository(options.database);
    this.#funding = new FundingReader(options.client, options.reactor, options.multicall);
  }

  /** The epoch of the lease this replica holds while it indexes; undefined while it stands by. */
  get epoch(): bigint | undefined {
    return this.#lease?.epoch;
  }

  /** Steps every poll interval while this replica holds the indexer lease; stands by (and retries) while it does not. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const tick = async () => {
      if (this.#stopped) return;
      try {
        const lease = await this.#heldLease();
        if (lease) await this.#stepUntilCaughtUp(lease);
      } catch (error) {
        if (error instanceof IndexerLeaseLostError) await this.#dropLease(error.message);
        else this.options.logger.error({ err: error }, "indexer step failed; retrying");
      }
      if (!this.#stopped) this.#timer = setTimeout(run, this.options.pollIntervalMs ?? 1000);
    };
    const run = () => {
      this.#running = tick();
    };
    run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    await this.#lease?.release().catch(() => {});
    this.#lease = null;
  }

  /** The lease, acquired if this replica has none (null while another replica holds it); a lost one is dropped. */
  async #heldLease(): Promise<IndexerLease | null> {
    const lost = this.#lease?.lost;
    if (lost) await this.#dropLease(lost);
    if (this.#lease) return this.#lease;
    this.#lease = await IndexerLease.acquire(this.options.database);
    if (this.#lease)
      this.options.logger.info({ epoch: this.#lease.epoch }, "acquired the indexer lease: indexing");
    return this.#lease;
  }

  async #dropLease(reason: string): Promise<void> {
    const lease = this.#lease;
    if (!lease) return;
    this.#lease = null;
    this.options.logger.warn(
      { epoch: lease.epoch, reason },
      "lost the indexer lease: stopped indexing until it is acquired again",
    );
    await lease.release().catch(() => {});
  }

  async #stepUntilCaughtUp(lease: IndexerLease): Promise<void> {
    for (;;) {
      const result = await this.#step(lease);
      if (this.#stopped || result.blocks < MAX_BLOCKS_PER_STEP) return;
    }
  }

  /**
   * One pass under the lease: the running loop's, or one acquired for this pass (IndexerLeaseHeldElsewhereError when
   * another replica holds it).
   */
  async step(): Promise<StepResult> {
    if (this.#lease) return this.#step(this.#lease);
    const lease = await IndexerLease.acquire(this.options.database);
    if (!lease) throw new IndexerLeaseHeldElsewhereError();
    try {
      return await this.#step(lease);
    } finally {
      await lease.release();
    }
  }

  /** Detects and rewinds a reorg, then indexes up to MAX_BLOCKS_PER_STEP confirmed blocks. */
  async #step(lease: IndexerLease): Promise<StepResult> {
    const { client, confirmationDepth } = this.options;
    let last = await this.#lastIndexed();
    if (last) {
      if ((await this.#canonicalHash(last.number)) !== last.hash) {
        const forkPoint = await this.#rewind(lease);
        return { indexedTo: forkPoint, blocks: 0, rewoundTo: forkPoint };
      }
    }
    // The head is read before looking at open orders: a fill of an order created after this read lands above it.
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const target = head - BigInt(confirmationDepth);
    let next = last ? last.number + 1n : this.options.startBlock;
    if (next > target) return { indexedTo: last?.number ?? null, blocks: 0 };

    // Nothing to follow: jump to the confirmed head instead of walking every block.
    if (!(await this.#hasTrackedOrders()) && target - next > 1n) {
      const block = await this.#block(target);
      await this.#write(lease, async (tx) => {
        await tx.insert(indexedBlocks).values(block);
        await this.#prune(tx, block.number);
      });
      return { indexedTo: target, blocks: 1 };
    }

    let blocks = 0;
    while (next <= target && blocks < MAX_BLOCKS_PER_STEP) {
      const block = await this.#block(next);
      if (last && block.parentHash !== last.hash) {
        const forkPoint = await this.#rewind(lease);
        return { indexedTo: forkPoint, blocks, rewoundTo: forkPoint };
      }
      await this.#indexBlock(lease, block);
      last = { number: block.number, hash: block.hash };
      next += 1n;
      blocks += 1;
    }
    return { indexedTo: last?.number ?? null, blocks };
  }

  /** Every indexer write: one transaction that first checks the lease is still this replica's. */
  #write(lease: IndexerLease, work: (tx: Tx) => Promise<void>): Promise<void> {
    return this.options.database.db.transaction(async (tx) => {
      await lease.check(tx);
      await work(tx);
    });
  }

  async #block(number: bigint): Promise<BlockInfo> {
    const block = await this.options.client.getBlock({ blockNumber: number });
    return {
      number: block.number,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: block.timestamp,
    };
  }

  /** The hash of the chain's block `number`, or undefined when the chain does not reach it (any more). */
  async #canonicalHash(number: bigint): Promise<Hex | undefined> {
    try {
      return (await this.options.client.getBlock({ blockNumber: number })).hash;
    } catch (error) {
      if (error instanceof BlockNotFoundError) return undefined;
      throw error;
    }
  }

  async #lastIndexed(): Promise<{ number: bigint; hash: Hex } | undefined> {
    const rows = await this.options.database.db
      .select({ number: indexedBlocks.number, hash: indexedBlocks.hash })
      .from(indexedBlocks)
      .orderBy(desc(indexedBlocks.number))
      .limit(1);
    const row = rows[0];
    return row ? { number: row.number, hash: row.hash as Hex } : undefined;
  }

  async #hasTrackedOrders(): Promise<boolean> {
    const rows = await this.options.database.query<{ one: number }>(
      "select 1 as one from orders where status in ('open', 'insufficient-funds') limit 1",
    );
    return rows.length > 0;
  }

  /** Applies one confirmed block: its events first, then the reconciler's judgement of every open order. */
  async #indexBlock(lease: IndexerLease, block: BlockInfo): Promise<void> {
    const { client, reactor } = this.options;
    const logs = await client.getLogs({ address: reactor, blockHash: block.hash });
    const events = parseEventLogs({ abi: reactorAbi, logs, strict: true });
    const open = await this.options.database.db
      .select({
        orderId: orders.orderId,
        swapper: orders.swapper,
        tokenIn: orders.tokenIn,
        nonce: orders.nonce,
        amountIn: orders.amountIn,
        deadline: orders.deadline,
        orderHash: orders.orderHash,
      })
      .from(orders)
      .where(eq(orders.status, "open"));
    const funding = await this.#funding.read(
      open.map((order) => ({
        swapper: order.swapper as Address,
        tokenIn: order.tokenIn as Address,
        nonce: BigInt(order.nonce),
      })),
      block.number,
    );
    const at = this.options.clock.now();

    await this.#write(lease, async (tx) => {
      await tx.insert(indexedBlocks).values(block);
      const touched = new Set<string>();

      for (const event of events) {
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
          await tx
            .insert(reactorFills)
            .values({ blockNumber: block.number, logIndex, orderHash, txHash, outputs: settled });
          const rows = await tx
            .select({ orderId: orders.orderId, status: orders.status })
            .from(orders)
            .where(eq(orders.orderHash, orderHash));
          const row = rows[0];
          // A Fill always wins, whatever the order's status.
          if (row && row.status !== "filled") {
            await this.#orders.changeStatus(
              {
                orderId: row.orderId,
                from: row.status,
                to: "filled",
                reason: "Fill event",
                blockNumber: block.number,
                txHash,
                settledAmounts: settled,
                at,
              },
              tx,
            );
            touched.add(row.orderId);
          }
        } else if (event.eventName === "InvalidateNonce") {
          const swapper = event.args.swapper.toLowerCase();
          const nonce = event.args.nonce.toString();
          await tx
            .insert(nonceInvalidations)
            .values({ blockNumber: block.number, logIndex, swapper, nonce, txHash });
          const rows = await tx
            .select({ orderId: orders.orderId })
            .from(orders)
            .where(and(eq(orders.swapper, swapper), eq(orders.nonce, nonce), eq(orders.status, "open")));
          for (const row of rows) {
            await this.#orders.changeStatus(
              {
                orderId: row.orderId,
                from: "open",
                to: "cancelled",
                reason: "swapper invalidated the nonce",
                blockNumber: block.number,
                txHash,
                at,
              },
              tx,
            );
            touched.add(row.orderId);
          }
        }
      }

      await this.#reconcile(tx, block, open, funding, touched, at);
      await this.#prune(tx, block.number);
    });
    // Status changes go through #orders inside the block's transaction: readers learn of them once it committed.
    OrderChanges.of(this.options.database).committed();
  }

  async #reconcile(
    tx: Tx,
    block: BlockInfo,
    open: Array<{ orderId: string; amountIn: string; deadline: number }>,
    funding: Awaited<ReturnType<FundingReader["read"]>>,
    touched: ReadonlySet<string>,
    at: Date,
  ): Promise<void> {
    const candidates = open.filter((order) => !touched.has(order.orderId));
    if (candidates.length === 0) return;
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
      // A failed read says nothing about the order: judge it at the next block.
      if (!state) continue;
      const previous = streaks.get(order.orderId);
      const previousStreak = previous && previous.lastBlock === block.number - 1n ? previous.streak : 0;
      const verdict = judgeOpenOrder(
        { deadline: BigInt(order.deadline), amountIn: BigInt(order.amountIn), previousStreak },
        state,
        block.timestamp,
      );
      const change = (to: OrderStatus, reason: string) =>
        this.#orders.changeStatus(
          { orderId: order.orderId, from: "open", to, reason, blockNumber: block.number, at },
          tx,
        );
      if (verdict.kind === "expired" || verdict.kind === "error") {
        await change(verdict.kind, verdict.reason);
      } else if (verdict.kind === "underfunded" && verdict.becomesInsufficient) {
        await change("insufficient-funds", verdict.reason);
      } else if (verdict.kind === "underfunded") {
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
  }

  async #prune(tx: Tx, indexed: bigint): Promise<void> {
    if (indexed > KEPT_BLOCKS) {
      await tx.delete(indexedBlocks).where(sql`${indexedBlocks.number} < ${indexed - KEPT_BLOCKS}`);
    }
  }

  /**
   * Finds the newest stored block still on the canonical chain and undoes everything above it: events, streaks and
   * every status change made at a removed block (each undo is itself recorded in the history). Returns the fork point.
   */
  async #rewind(lease: IndexerLease): Promise<bigint> {
    const stored = await this.options.database.db
      .select({ number: indexedBlocks.number, hash: indexedBlocks.hash })
      .from(indexedBlocks)
      .orderBy(desc(indexedBlocks.number));
    let forkPoint = this.options.startBlock - 1n;
    for (const block of stored) {
      if ((await this.#canonicalHash(block.number)) === block.hash) {
        forkPoint = block.number;
        break;
      }
    }
    const at = this.options.clock.now();
    await this.#write(lease, async (tx) => {
      const changes = await tx
        .select()
        .from(orderStatusHistory)
        .where(gt(orderStatusHistory.blockNumber, forkPoint))
        .orderBy(orderStatusHistory.id);
      const firstChange = new Map<string, (typeof changes)[number]>();
      for (const change of changes)
        if (!firstChange.has(change.orderId)) firstChange.set(change.orderId, change);
      for (const [orderId, change] of firstChange) {
        const current = await tx
          .select({ status: orders.status })
          .from(orders)
          .where(eq(orders.orderId, orderId));
        const from = current[0]?.status;
        const to = change.fromStatus;
        if (!from || !to || from === to) continue;
        await this.#orders.changeStatus(
          {
            orderId,
            from,
            to,
            reason: `reorg: block ${change.blockNumber} left the chain (back to block ${forkPoint})`,
            at,
            ...(to !== "filled" ? { txHash: null, settledAmounts: [] } : {}),
          },
          tx,
        );
      }
      await tx.delete(reactorFills).where(gt(reactorFills.blockNumber, forkPoint));
      await tx.delete(nonceInvalidations).where(gt(nonceInvalidations.blockNumber, forkPoint));
      await tx.delete(orderFundingStreaks);
      await tx.delete(indexedBlocks).where(gt(indexedBlocks.number, forkPoint));
    });
    OrderChanges.of(this.options.database).committed();
    this.options.logger.warn({ forkPoint }, "reorg: rewound the indexer");
    return forkPoint;
  }
}

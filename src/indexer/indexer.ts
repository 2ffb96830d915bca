// The Reactor indexer: a block follower (block-follower.ts: head, confirmations, reorgs) driving an event applier
// (event-applier.ts: Fill, InvalidateNonce, the reconciler, and their rewind), which changes orders through the orders
// module and publishes the changes to OrderEvents. One replica indexes at a time: it holds the indexer lease
// (lease.ts), and every write checks the lease in its own transaction. A replica that loses the lease (its database
// session dropped, or another replica took over) stops indexing and tries to acquire it again at every poll; that
// loop is the one every leased chain follower runs (src/chain/leased-head-loop.ts).

import type { Address } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import type { HeadSource } from "../chain/heads.ts";
import { LeasedHeadLoop } from "../chain/leased-head-loop.ts";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { DEFAULT_FINALITY_DEPTH } from "../deployment/schema.ts";
import type { Logger } from "../logger.ts";
import type { OrderEvents, OrderStatusChanged } from "../orders/order-events.ts";
import { OrderSettlement } from "../orders/settlement.ts";
import type { OrderTransitionObserver } from "../orders/transitions.ts";
import { BlockFollower, MAX_BLOCKS_PER_STEP, type StepResult } from "./block-follower.ts";
import { type BlockReads, type OrderEndObserver, ReactorEventApplier } from "./event-applier.ts";
import { Finality } from "./finality.ts";
import { IndexerLease, IndexerLeaseHeldElsewhereError, IndexerLeaseLostError } from "./lease.ts";

export interface IndexerOptions {
  database: Database;
  client: ChainPublicClient;
  reactor: Address;
  multicall?: Address;
  confirmationDepth: number;
  /** How deep a deciding block must be for its orders to be final (default: the larger of confirmationDepth and 64). */
  finalityDepth?: number;
  /** Prefer the chain's `finalized` block tag to the depth (real networks; default false). */
  useFinalizedTag?: boolean;
  /** The first block to index when nothing is indexed yet. */
  startBlock: bigint;
  /** Where the order changes are published once their block's transaction has committed. */
  orderEvents: OrderEvents;
  clock: Clock;
  logger: Logger;
  /** Without heads: how often it steps. With heads: how soon a failed step, or a replica standing by, tries again. */
  pollIntervalMs?: number;
  /** New heads: it steps as soon as one arrives, instead of every poll interval. */
  heads?: HeadSource;
  /** Told of every order a block ends, in its transaction (the fade breaker). */
  endObserver?: OrderEndObserver;
  /** Told of every status change the indexer writes, in its transaction (the scorecard counts). */
  orderObserver: OrderTransitionObserver;
}

export class ReactorIndexer {
  readonly #follower: BlockFollower<BlockReads, OrderStatusChanged[]>;
  readonly #finality: Finality;
  readonly #loop: LeasedHeadLoop<IndexerLease>;

  constructor(private readonly options: IndexerOptions) {
    const settlement = new OrderSettlement(options.database, options.orderObserver);
    this.#finality = new Finality({
      database: options.database,
      client: options.client,
      settlement,
      orderEvents: options.orderEvents,
      clock: options.clock,
      logger: options.logger,
      finalityDepth: options.finalityDepth ?? Math.max(options.confirmationDepth, DEFAULT_FINALITY_DEPTH),
      useFinalizedTag: options.useFinalizedTag ?? false,
    });
    const applier = new ReactorEventApplier({
      client: options.client,
      reactor: options.reactor,
      ...(options.multicall ? { multicall: options.multicall } : {}),
      settlement,
      orderEvents: options.orderEvents,
      clock: options.clock,
      ...(options.endObserver ? { endObserver: options.endObserver } : {}),
    });
    this.#follower = new BlockFollower({
      database: options.database,
      client: options.client,
      confirmationDepth: options.confirmationDepth,
      startBlock: options.startBlock,
      logger: options.logger,
      applier,
    });
    this.#loop = new LeasedHeadLoop({
      logger: options.logger,
      ...(options.heads ? { heads: options.heads } : {}),
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      acquire: () => IndexerLease.acquire(options.database),
      isLeaseLost: (error) => error instanceof IndexerLeaseLostError,
      catchUp: (lease, head) => this.#stepUntilCaughtUp(lease, head),
      messages: {
        acquired: "acquired the indexer lease: indexing",
        lost: "lost the indexer lease: stopped indexing until it is acquired again",
        failed: "indexer step failed; retrying",
      },
    });
  }

  /** The epoch of the lease this replica holds while it indexes; undefined while it stands by. */
  get epoch(): bigint | undefined {
    return this.#loop.lease?.epoch;
  }

  /**
   * Steps at every new head (with heads) or every poll interval (without) while this replica holds the indexer
   * lease; stands by (and retries every poll interval) while it does not. A failed step is retried at the next head
   * or after a poll interval, whichever comes first.
   */
  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #stepUntilCaughtUp(lease: IndexerLease, head: bigint | undefined): Promise<void> {
    // The head just announced saves asking for it again, while nothing newer can have been missed.
    let known = head !== undefined && this.options.heads?.isCurrent(head) ? head : undefined;
    // A pushed head comes with its block's fields: the block need not be read again.
    let block = known === undefined ? undefined : this.options.heads?.pushedBlock(known);
    for (;;) {
      const result = await this.#follower.step(lease, known, block);
      known = undefined;
      block = undefined;
      if (this.#loop.stopped) return;
      if (result.blocks < MAX_BLOCKS_PER_STEP) break;
    }
    await this.#finality.finalize(lease);
  }

  async #stepOnce(lease: IndexerLease): Promise<StepResult> {
    const result = await this.#follower.step(lease);
    await this.#finality.finalize(lease);
    return result;
  }

  /**
   * One pass under the lease: the running loop's, or one acquired for this pass (IndexerLeaseHeldElsewhereError when
   * another replica holds it).
   */
  async step(): Promise<StepResult> {
    const held = this.#loop.lease;
    if (held) return this.#stepOnce(held);
    const lease = await IndexerLease.acquire(this.options.database);
    if (!lease) throw new IndexerLeaseHeldElsewhereError();
    try {
      return await this.#stepOnce(lease);
    } finally {
      await lease.release();
    }
  }
}

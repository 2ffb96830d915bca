// Follows the chain for the points engine, in the indexer's manner (src/indexer/block-follower.ts): behind the head by
// the confirmations, noticing a reorg by the stored hash of its position and rewinding to the newest stepped block
// still on the chain (the undo journal restores the records as they were there), then stepping the ledger over the
// next range of blocks. The ledger is stepped only where something happens: at blocks with stake events, at snapshot
// blocks and at the range's end; a whole range (many blocks during a backfill) is written in one transaction, so the
// stored state is always the state after a whole step and the in-memory ledger equals it once that commits.
//
// A backfill reads the next range (its events and the headers it needs) while the current one is stepped and
// committed, so the node's and the database's work overlap the ledger's. Only final ranges are read ahead (no reorg
// reaches them, so reading them early cannot mix two chains); the read is used only by the step that starts where
// it starts, and dropped on a rewind, a failed step or a forget.
//
// A pipelined step (`step(lease, { pipelined: true })`, the backfill's and the catching-up engine's) also leaves its
// commit in flight when a next range was read ahead: the next step computes that range in memory while the database
// commits, and starts its own commit only once the one in flight has committed. Commits stay one at a time and in
// order, each with its own position, so a kill at any moment still leaves the state after some whole step. A failed
// commit fails the next step (or `settle`), which drops the ledger stepped on top of it: the database is the truth.
import type { Hex } from "viem";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { BlockHeader, PointsChainSource } from "./chain-source.ts";
import type { PointsEngineLease } from "./lease.ts";
import type { LedgerRecord, LedgerSnapshot, LedgerStart, PointsLedgerApi, StakeEvent } from "./model.ts";
import { recordIndex } from "./record-index.ts";
import { steppedBlocksNewestFirst } from "./store/blocks.ts";
import { readPosition } from "./store/position.ts";
import type { StoredRecord } from "./store/records.ts";
import type { EngineSnapshot, VaultTypeAmount } from "./store/snapshots.ts";
import { EngineStore, type SteppedChanges } from "./store/store.ts";

/** Makes ledgers over the configured scope: a new one at the start, or one restored from the stored records. */
export interface LedgerFactory {
  create(start: LedgerStart): PointsLedgerApi;
  restore(records: LedgerRecord[]): PointsLedgerApi;
}

/** Blocks one step covers at most: a backfill writes this many blocks per transaction. */
export const DEFAULT_MAX_BLOCKS_PER_STEP = 5_000;

export interface PointsFollowerOptions {
  database: Database;
  clock: Clock;
  logger: Logger;
  chain: PointsChainSource;
  /** The ledger factory over the scope, which is read from the chain once, on the first step that needs it. */
  ledgers: () => Promise<LedgerFactory>;
  /** The first block whose stake earns points. */
  startBlock: bigint;
  /**
   * The first block whose events build the stake state (default startBlock): stake deposited before the start block
   * earns from it on when this block is at or before its deposit.
   */
  historyFromBlock?: bigint;
  confirmations: number;
  /** Blocks deeper than this below the head are final: their undo images are no longer kept. */
  finalityDepth: number;
  snapshotEveryBlocks: number;
  maxBlocksPerStep?: number;
  /** Monotonic milliseconds, for the blocks-per-second estimate (default performance.now). */
  now?: () => number;
}

/** The blocks the ledger steps to over one range, ascending, each with its events (see #stepPoints). */
type StepPoints = { header: BlockHeader; events: readonly StakeEvent[] }[];

/** A range read ahead: its points, read while the step before it was stepped and committed. */
interface ReadAhead {
  from: bigint;
  to: bigint;
  points: Promise<StepPoints>;
}

/** A pipelined step's commit, still running: the position it writes, and its outcome. */
interface CommitInFlight {
  position: { blockNumber: bigint; blockHash: Hex };
  committed: Promise<void>;
}

/**
 * Points a pipelined step steps between two yields to the event loop: the commit in flight sends its next statement
 * only at a yield, and a commit is a score of statements, so it ends while the range is stepped, not after.
 */
const POINTS_PER_YIELD = 64;

export interface StepOptions {
  /**
   * Leaves this step's commit in flight when the next range was read ahead: the caller steps on and calls `settle`
   * before it stops or gives up the lease.
   */
  pipelined?: boolean;
}

export interface FollowStep {
  /** The stored position after the step (null: nothing computed yet); a pipelined step's may still be committing. */
  position: bigint | null;
  /** The newest block the engine could be at now (head less confirmations). */
  target: bigint;
  /** Blocks the step advanced over. */
  blocks: number;
  events: number;
  /** Set when the step found a reorg and rewound (to this block; -1 = to nothing, recomputing from the start). */
  rewoundTo?: bigint;
}

export class PointsFollower {
  readonly #store: EngineStore;
  /** Equal to the stored state whenever defined; dropped on any failed write and restored from the database. */
  #ledger: PointsLedgerApi | undefined;
  #blocksPerSecond = 0;
  #readAhead: ReadAhead | undefined;
  #inFlight: CommitInFlight | undefined;

  constructor(private readonly options: PointsFollowerOptions) {
    this.#store = new EngineStore(options.database, options.clock);
  }

  /** The in-memory ledger at the stored position (the engine's replica only); undefined before the first step. */
  get ledger(): PointsLedgerApi | undefined {
    return this.#ledger;
  }

  /**
   * Forgets the in-memory ledger: the next step restores it from the database (after another process wrote), once a
   * commit still in flight has ended.
   */
  forget(): void {
    this.#ledger = undefined;
    this.#readAhead = undefined;
  }

  /** One step under `lease`: a reorg rewound, or up to maxBlocksPerStep blocks computed and written. */
  async step(lease: PointsEngineLease, options: StepOptions = {}): Promise<FollowStep> {
    try {
      return await this.#step(lease, options.pipelined === true);
    } catch (error) {
      await this.#drop();
      throw error;
    }
  }

  /** Waits for a pipelined step's commit still in flight; when it fails, drops the ledger stepped on top of it. */
  async settle(): Promise<void> {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (!inFlight) return;
    try {
      await inFlight.committed;
    } catch (error) {
      await this.#drop();
      throw error;
    }
  }

  /** Whatever was stepped in memory but not committed must not survive: the database is the truth. */
  async #drop(): Promise<void> {
    this.#ledger = undefined;
    this.#readAhead = undefined;
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    // Ended before the next step reads the database: the restore then sees one whole step's state.
    await inFlight?.committed.catch(() => {});
  }

  async #step(lease: PointsEngineLease, pipelined: boolean): Promise<FollowStep> {
    const { confirmations, startBlock } = this.options;
    // Taken at once: used below only when this step starts where it starts, otherwise dropped.
    const readAhead = this.#readAhead;
    this.#readAhead = undefined;
    // A commit in flight is the position this step starts from, and the in-memory ledger is already there; without
    // that ledger (forgotten meanwhile) the commit is awaited and the position read back as usual. It stays in
    // #inFlight until awaited, so a failure on the way waits for it (#drop).
    if (this.#inFlight && !this.#ledger) await this.settle();
    const inFlight = this.#inFlight;
    const position = inFlight?.position ?? (await readPosition(this.options.database));
    const head = await this.options.chain.headNumber();
    const target = head - BigInt(confirmations);
    // The scope is read at the start block: nothing to read before the chain has it (a devnet deploying as we start).
    if (!position && target < startBlock) return { position: null, target, blocks: 0, events: 0 };
    const ledgers = await this.options.ledgers();
    if (position) {
      const canonical = await this.options.chain.header(position.blockNumber);
      if (canonical?.hash !== position.blockHash) {
        await this.settle();
        return this.#rewind(lease, ledgers, position.blockNumber);
      }
    }
    const finalBlock = head - BigInt(this.options.finalityDepth);
    const begin = Date.now();
    const started = this.options.now?.() ?? performance.now();

    let ledger: PointsLedgerApi;
    const stepped: SteppedChanges[] = [];
    let from: bigint;
    if (position) {
      ledger = this.#ledger ?? (await this.#restore(ledgers, position.blockNumber));
      from = position.blockNumber + 1n;
    } else {
      // The ledger starts at the block before the history's first; points accrue from the start block on, with the
      // state of the block before it.
      const history = this.#historyFrom();
      const origin = await this.#header(history - 1n);
      ledger = ledgers.create({
        block: origin.number,
        timestamp: origin.timestamp,
        accrualStartBlock: startBlock - 1n,
      });
      stepped.push({ block: origin, changes: ledger.takeChanges().map(stored) });
      from = history;
    }
    const done = (blocks: number, events: number): FollowStep => ({
      position: stepped.at(-1)?.block.number ?? position?.blockNumber ?? null,
      target,
      blocks,
      events,
    });
    if (from > target) {
      await this.settle();
      return done(0, 0);
    }
    const maxBlocks = BigInt(this.options.maxBlocksPerStep ?? DEFAULT_MAX_BLOCKS_PER_STEP);
    let to = minBigint(target, from + maxBlocks - 1n);
    let points: StepPoints;
    if (readAhead !== undefined && readAhead.from === from && readAhead.to <= finalBlock) {
      // Read while the step before was computed; it may end before `to` (the target moved on since): a shorter step.
      to = readAhead.to;
      points = await readAhead.points;
    } else {
      points = await this.#readRange(from, to, finalBlock);
    }
    const next = to + 1n;
    const nextTo = minBigint(target, to + maxBlocks);
    if (next <= nextTo && nextTo <= finalBlock) {
      const ahead = this.#readRange(next, nextTo, finalBlock);
      // Awaited by the next step, or dropped: a failure here must not surface as an unhandled rejection.
      ahead.catch(() => {});
      this.#readAhead = { from: next, to: nextTo, points: ahead };
    }
    const snapshots: EngineSnapshot[] = [];
    let events = 0;
    // Final blocks need no undo images: their changes are taken once, at the last final block, where the ledger's
    // change set holds each changed record once with its latest value (all the store keeps of per-block changes).
    // Blocks a reorg can still remove are taken one by one, for their journal.
    const lastFinal = points.findLastIndex((point) => point.header.number <= finalBlock);
    for (const [i, point] of points.entries()) {
      if (this.#inFlight && i % POINTS_PER_YIELD === POINTS_PER_YIELD - 1) await yieldToEventLoop();
      ledger.step({ number: point.header.number, timestamp: point.header.timestamp, events: point.events });
      events += point.events.length;
      stepped.push({ block: point.header, changes: i < lastFinal ? [] : ledger.takeChanges().map(stored) });
      if (point.header.number % BigInt(this.options.snapshotEveryBlocks) === 0n)
        snapshots.push(engineSnapshot(ledger.snapshot()));
    }
    const now = ledger.snapshot();
    const blocks = Number(to - from + 1n);
    const seconds = ((this.options.now?.() ?? performance.now()) - started) / 1000;
    if (seconds > 0) {
      const rate = blocks / seconds;
      // A moving average: a live engine's one-block steps pull a backfill's rate down gently, not at once.
      this.#blocksPerSecond = this.#blocksPerSecond === 0 ? rate : 0.7 * this.#blocksPerSecond + 0.3 * rate;
    }
    // The previous step's commit first: commits one at a time, in order.
    await this.settle();
    const commit = this.#store.commitStep(lease, {
      blocks: stepped,
      emitted: now.emitted,
      blocksPerSecond: this.#blocksPerSecond,
      snapshots,
      current: amountsOf(now),
      finalBlock: finalBlock >= 0n ? finalBlock : undefined,
    });
    const last = stepped.at(-1)!.block;
    if (pipelined && this.#readAhead !== undefined) {
      // Awaited by the next step or by settle; a failure must not surface as an unhandled rejection meanwhile.
      commit.catch(() => {});
      this.#inFlight = { position: { blockNumber: last.number, blockHash: last.hash }, committed: commit };
    } else {
      await commit;
    }
    this.#ledger = ledger;
    this.options.logger.debug(
      { from, to, events, snapshots: snapshots.length, ms: Date.now() - begin },
      "points engine stepped",
    );
    return done(blocks, events);
  }

  /**
   * The points of from..to. Final blocks are read with one range of events; a block above `finalBlock` is read alone,
   * its header by number and its events by that header's hash: a node behind the head (older clients, a load
   * balancer's lagging node) may answer a range reaching past its head without the blocks it lacks and no error, and
   * a block stepped as empty would lose its events for good, where a hash it does not know is refused.
   */
  async #readRange(from: bigint, to: bigint, finalBlock: bigint): Promise<StepPoints> {
    const lastFinal = minBigint(to, finalBlock);
    const ranged = from <= lastFinal ? await this.options.chain.events(from, lastFinal) : [];
    const live: bigint[] = [];
    for (let n = from > finalBlock ? from : finalBlock + 1n; n <= to; n++) live.push(n);
    const liveBlocks = await mapLimited(live, 16, async (n) => {
      const header = await this.#header(n);
      return { header, events: await this.options.chain.blockEvents(header) };
    });
    return this.#stepPoints(
      from,
      to,
      [
        ...ranged,
        ...liveBlocks
          .filter((block) => block.events.length > 0)
          .map(({ header, events }) => ({ ...header, events })),
      ],
      liveBlocks.map((block) => block.header),
    );
  }

  /**
   * The blocks the ledger steps to in from..to, ascending: every block with events, every snapshot block, and `to`.
   * Headers are read only for the snapshot blocks and `to` that have no events (an event block comes with its own),
   * unless `known` holds them already.
   */
  async #stepPoints(
    from: bigint,
    to: bigint,
    eventBlocks: readonly {
      number: bigint;
      hash: BlockHeader["hash"];
      timestamp: bigint;
      events: StakeEvent[];
    }[],
    known: readonly BlockHeader[] = [],
  ): Promise<StepPoints> {
    const byNumber = new Map<bigint, { header: BlockHeader; events: readonly StakeEvent[] }>();
    for (const block of eventBlocks) {
      if (block.number < from || block.number > to) continue;
      byNumber.set(block.number, {
        header: { number: block.number, hash: block.hash, timestamp: block.timestamp },
        events: block.events,
      });
    }
    const every = BigInt(this.options.snapshotEveryBlocks);
    const bare: bigint[] = [];
    // The ledger steps at the block before the start block: accrual counts from its timestamp.
    const accrualStart = this.options.startBlock - 1n;
    if (accrualStart >= from && accrualStart <= to && !byNumber.has(accrualStart)) bare.push(accrualStart);
    for (let n = ((from + every - 1n) / every) * every; n <= to; n += every)
      if (!byNumber.has(n)) bare.push(n);
    if (!byNumber.has(to) && !bare.includes(to)) bare.push(to);
    bare.sort(compareBigint);
    const knownHeaders = new Map(known.map((header) => [header.number, header]));
    const headers = await mapLimited(bare, 16, async (n) => knownHeaders.get(n) ?? this.#header(n));
    for (const header of headers) byNumber.set(header.number, { header, events: [] });
    return [...byNumber.values()].sort((a, b) => compareBigint(a.header.number, b.header.number));
  }

  #historyFrom(): bigint {
    const { historyFromBlock, startBlock } = this.options;
    return historyFromBlock !== undefined && historyFromBlock < startBlock ? historyFromBlock : startBlock;
  }

  async #header(number: bigint): Promise<BlockHeader> {
    const header = await this.options.chain.header(number);
    if (!header) throw new Error(`the chain has no block ${number} (yet)`);
    return header;
  }

  async #restore(ledgers: LedgerFactory, positionBlock: bigint): Promise<PointsLedgerApi> {
    const records = await this.#store.readRecords();
    const ledger = ledgers.restore(records.map(ledgerRecord));
    if (ledger.position.block !== positionBlock)
      throw new Error(
        `the stored records are at block ${ledger.position.block}, the stored position at ${positionBlock}`,
      );
    return ledger;
  }

  /**
   * The block at the position left the chain: back to the newest stepped block still on it, or — when none is (a
   * reorg deeper than the kept blocks) — to nothing, to compute again from the start block.
   */
  async #rewind(lease: PointsEngineLease, ledgers: LedgerFactory, from: bigint): Promise<FollowStep> {
    const target = (await this.options.chain.headNumber()) - BigInt(this.options.confirmations);
    for (const block of await steppedBlocksNewestFirst(this.options.database.db)) {
      if ((await this.options.chain.header(block.number))?.hash !== block.hash) continue;
      let restored: PointsLedgerApi | undefined;
      await this.#store.rewind(lease, block, (records) => {
        restored = ledgers.restore(records.map(ledgerRecord));
        const snapshot = restored.snapshot();
        return { emitted: snapshot.emitted, current: amountsOf(snapshot) };
      });
      this.#ledger = restored;
      this.options.logger.warn({ from, forkPoint: block.number }, "reorg: rewound the points engine");
      return { position: block.number, target, blocks: 0, events: 0, rewoundTo: block.number };
    }
    await this.#store.reset(lease);
    this.#ledger = undefined;
    this.options.logger.warn(
      { from },
      "reorg deeper than the blocks the points engine keeps: computing again from the start block",
    );
    return { position: null, target, blocks: 0, events: 0, rewoundTo: -1n };
  }

  /** The newest block the engine could be at now: the head less the confirmations. */
  async target(): Promise<bigint> {
    return (await this.options.chain.headNumber()) - BigInt(this.options.confirmations);
  }

  /** Rewinds to the newest kept block at or below `block` (or to nothing): `backfill --from`. */
  async rewindTo(lease: PointsEngineLease, block: bigint): Promise<bigint | null> {
    await this.settle();
    this.#readAhead = undefined;
    const ledgers = await this.options.ledgers();
    const kept = (await steppedBlocksNewestFirst(this.options.database.db)).find((b) => b.number <= block);
    const position = await readPosition(this.options.database);
    if (position && position.blockNumber <= block) return position.blockNumber;
    if (!kept) {
      await this.#store.reset(lease);
      this.#ledger = undefined;
      return null;
    }
    let restored: PointsLedgerApi | undefined;
    await this.#store.rewind(lease, kept, (records) => {
      restored = ledgers.restore(records.map(ledgerRecord));
      const snapshot = restored.snapshot();
      return { emitted: snapshot.emitted, current: amountsOf(snapshot) };
    });
    this.#ledger = restored;
    return kept.number;
  }
}

/** A ledger record as stored, with the vault and receiver it belongs to as index columns. */
function stored(record: LedgerRecord): StoredRecord {
  return { kind: record.kind, key: record.key, ...recordIndex(record), value: record.value };
}

function ledgerRecord(record: StoredRecord): LedgerRecord {
  return { kind: record.kind, key: record.key, value: record.value };
}

/** The per vault × receiver type amounts of a ledger snapshot (zeros left out). */
export function amountsOf(snapshot: LedgerSnapshot): VaultTypeAmount[] {
  return snapshot.vaults.flatMap((vault) =>
    Object.entries(vault.byType).flatMap(([receiverType, points]) =>
      points > 0n ? [{ vault: vault.vault, receiverType, points }] : [],
    ),
  );
}

function engineSnapshot(snapshot: LedgerSnapshot): EngineSnapshot {
  return {
    blockNumber: snapshot.block,
    blockTimestamp: snapshot.timestamp,
    total: snapshot.total,
    emitted: snapshot.emitted,
    vaults: amountsOf(snapshot),
  };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `fn` over `items` with at most `limit` in flight, results in order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// The engine's writes, each one transaction that first checks the lease: a step (the records it changed, their
// before-images while a reorg can still remove the block, the blocks stepped to, the position, the snapshots taken and
// the aggregates at the position), a rewind to a fork point, and a reset to nothing. A kill at any moment leaves the
// state after the last committed step: nothing is counted twice and nothing is lost.
import { sql } from "drizzle-orm";
import type { Clock } from "../../clock.ts";
import type { Database, DbTransaction } from "../../db/client.ts";
import type { PointsEngineLease } from "../lease.ts";
import { clearBlocks, forgetBlocksAbove, pruneBlocks, recordBlock, type SteppedBlock } from "./blocks.ts";
import { clearJournal, journalBeforeImages, pruneJournal, rewindJournal } from "./journal.ts";
import { clearPosition, writePosition } from "./position.ts";
import { latestPerKey, readAllRecords, type StoredRecord, upsertRecords } from "./records.ts";
import {
  deleteSnapshotsAbove,
  type EngineSnapshot,
  publishSnapshot,
  type VaultTypeAmount,
  writeCurrentAmounts,
} from "./snapshots.ts";

/**
 * One block stepped to within a batch, with the records its step changed. A final block's changes may come merged
 * on a later final block of the batch (the store merges final blocks' changes anyway); a block above finalBlock
 * carries exactly its own, for its journal.
 */
export interface SteppedChanges {
  block: SteppedBlock;
  changes: StoredRecord[];
}

/** What one committed step writes: one or many blocks (a backfill batches many), ending at `position`. */
export interface StepBatch {
  /** Ascending; the last one is the new position. */
  blocks: SteppedChanges[];
  emitted: bigint;
  blocksPerSecond: number;
  /** Snapshots taken at blocks of this batch. */
  snapshots: EngineSnapshot[];
  /** The aggregates at the new position. */
  current: VaultTypeAmount[];
  /** The newest final block: blocks above it are journaled, and what is at or below it is pruned. */
  finalBlock: bigint | undefined;
}

/** The ledger's valuation once rewound, computed from the restored records inside the rewind's transaction. */
export interface RestoredState {
  emitted: bigint;
  current: VaultTypeAmount[];
}

export class EngineStore {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  /** Writes a step's batch in one transaction under `lease`. */
  async commitStep(lease: PointsEngineLease, batch: StepBatch): Promise<void> {
    const position = batch.blocks.at(-1)?.block;
    if (!position) return;
    const now = this.clock.now();
    await this.#write(lease, async (tx) => {
      // Blocks a reorg can still remove are written one by one, each journaled against the state before it; the
      // final ones (a backfill's) are merged and written once.
      let pending: StoredRecord[] = [];
      const flush = async () => {
        await upsertRecords(tx, latestPerKey(pending));
        pending = [];
      };
      // The newest final block of the batch is kept: the floor a rewind reaches when every block above it is
      // replaced (the journal holds images only from the block after it on).
      let newestFinal: SteppedBlock | undefined;
      for (const { block, changes } of batch.blocks) {
        if (batch.finalBlock !== undefined && block.number <= batch.finalBlock) {
          pending.push(...changes);
          newestFinal = block;
          continue;
        }
        await flush();
        const latest = latestPerKey(changes);
        await journalBeforeImages(tx, block.number, latest);
        await upsertRecords(tx, latest);
        await recordBlock(tx, block);
      }
      await flush();
      if (newestFinal !== undefined && newestFinal !== position) await recordBlock(tx, newestFinal);
      await recordBlock(tx, position);
      for (const snapshot of batch.snapshots) await publishSnapshot(tx, snapshot, now);
      await writeCurrentAmounts(tx, batch.current);
      await writePosition(
        tx,
        {
          blockNumber: position.number,
          blockHash: position.hash,
          blockTimestamp: position.timestamp,
          leaseEpoch: lease.epoch,
          emitted: batch.emitted,
          blocksPerSecond: batch.blocksPerSecond,
        },
        now,
      );
      if (batch.finalBlock !== undefined) {
        await pruneJournal(tx, batch.finalBlock);
        await pruneBlocks(tx, batch.finalBlock);
      }
    });
  }

  /**
   * Rewinds to `forkPoint` (a stored block still on the chain) in one transaction: the records as they were after it,
   * the blocks and snapshots above it forgotten, the position and current aggregates those of the restored state.
   */
  async rewind(
    lease: PointsEngineLease,
    forkPoint: SteppedBlock,
    restore: (records: StoredRecord[]) => RestoredState,
  ): Promise<void> {
    const now = this.clock.now();
    await this.#write(lease, async (tx) => {
      await rewindJournal(tx, forkPoint.number);
      await forgetBlocksAbove(tx, forkPoint.number);
      await deleteSnapshotsAbove(tx, forkPoint.number);
      const restored = restore(await readAllRecords(tx));
      await writeCurrentAmounts(tx, restored.current);
      await writePosition(
        tx,
        {
          blockNumber: forkPoint.number,
          blockHash: forkPoint.hash,
          blockTimestamp: forkPoint.timestamp,
          leaseEpoch: lease.epoch,
          emitted: restored.emitted,
          blocksPerSecond: 0,
        },
        now,
      );
    });
  }

  /** Forgets everything the engine computed: it starts again from its start block. */
  async reset(lease: PointsEngineLease): Promise<void> {
    await this.#write(lease, async (tx) => {
      await clearJournal(tx);
      await clearBlocks(tx);
      await deleteSnapshotsAbove(tx, -2n);
      await tx.execute(sql`delete from points_engine_records`);
      await clearPosition(tx);
    });
  }

  /** Every stored record (the ledger's state at the stored position). */
  readRecords(): Promise<StoredRecord[]> {
    return readAllRecords(this.database.db);
  }

  #write<T>(lease: PointsEngineLease, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    return this.database.db.transaction(async (tx) => {
      await lease.check(tx);
      return work(tx);
    });
  }
}

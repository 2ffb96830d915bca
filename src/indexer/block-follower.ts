// Follows the chain block by block at the deployment's confirmation depth, in the spirit of Ponder's realtime sync:
// the head, the confirmed blocks not yet applied, and reorgs. Each applied block's hash is stored (indexed_blocks), so
// a block that left the chain is noticed — by its stored hash, or by a new block whose parent is not the last one
// applied — and rewound to the fork point. A chain that is now shorter than what was applied (a devnet whose anvil
// was killed before it saved its state) is a reorg too: the applied blocks it lacks left the chain. The follower knows
// nothing of orders: what a block means is the applier's (event-applier.ts).
import { desc, gt, sql } from "drizzle-orm";
import { BlockNotFoundError, type Hex } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import type { Database, DbTransaction } from "../db/client.ts";
import { pipelining, together } from "../db/pipeline.ts";
import type { Logger } from "../logger.ts";
import type { IndexerLease } from "./lease.ts";
import { indexedBlocks } from "./tables.ts";

/** Blocks applied per step at most, so one step never holds the loop for long. */
export const MAX_BLOCKS_PER_STEP = 100;
/** Applied blocks kept for reorg detection. */
const KEPT_BLOCKS = 512n;

export interface FollowedBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
}

/**
 * What one followed block, or a rewind, does to the stored state. `read` runs before the block's transaction (chain
 * reads hold no database connection); `apply` and `rewind` run inside it, after the lease check; `committed` gets
 * what they returned once that transaction has committed.
 */
export interface BlockApplier<Read, Applied> {
  /** False when nothing the chain does can change the stored state now: the follower may skip to the head. */
  needsEveryBlock(): Promise<boolean>;
  read(block: FollowedBlock): Promise<Read>;
  apply(tx: DbTransaction, block: FollowedBlock, read: Read): Promise<Applied>;
  /** Undoes everything applied at blocks above `forkPoint`. */
  rewind(tx: DbTransaction, forkPoint: bigint): Promise<Applied>;
  committed(applied: Applied): void;
}

interface AppliedBlock {
  number: bigint;
  hash: Hex;
}

export interface StepResult {
  indexedTo: bigint | null;
  blocks: number;
  rewoundTo?: bigint;
}

export interface BlockFollowerOptions<Read, Applied> {
  database: Database;
  client: ChainPublicClient;
  confirmationDepth: number;
  /** The first block to apply when nothing is applied yet. */
  startBlock: bigint;
  logger: Logger;
  applier: BlockApplier<Read, Applied>;
}

export class BlockFollower<Read, Applied> {
  /**
   * The last block applied under the lease of epoch `epoch`, as stored: the one writer knows it without asking the
   * database again. Forgotten on a new lease, a rewind, or a step that failed (what it wrote is then read back).
   */
  #last: { epoch: bigint; block: AppliedBlock | undefined } | undefined;

  constructor(private readonly options: BlockFollowerOptions<Read, Applied>) {}

  /**
   * Detects and rewinds a reorg, then applies up to MAX_BLOCKS_PER_STEP confirmed blocks, each under `lease`. `head`
   * is the chain's head when the caller has just learnt it (a new head pushed or polled); without it, it is read.
   * `headBlock`, the head's own fields when they came with it, is used instead of reading that block.
   */
  async step(lease: IndexerLease, head?: bigint, headBlock?: FollowedBlock): Promise<StepResult> {
    try {
      return await this.#step(lease, head, headBlock);
    } catch (error) {
      this.#last = undefined;
      throw error;
    }
  }

  // A head is indexed in as few round trips as it can be, one after another: every block applied is checked against
  // the last one by its parent hash, so the last block is read again only when no new block will check it.
  async #step(
    lease: IndexerLease,
    knownHead: bigint | undefined,
    headBlock: FollowedBlock | undefined,
  ): Promise<StepResult> {
    const { client, confirmationDepth, applier } = this.options;
    let last = await this.#lastApplied(lease);
    // The head is read before the applier looks at the stored state: a fill of an order created after this read
    // lands above it.
    const head = knownHead ?? (await client.getBlockNumber({ cacheTime: 0 }));
    const target = head - BigInt(confirmationDepth);
    let next = last ? last.number + 1n : this.options.startBlock;
    const lastLeftTheChain = async () =>
      last !== undefined && (await this.#canonicalHash(last.number)) !== last.hash;
    if (next > target) {
      // No block to apply: a reorg of the last one applied (or a chain now shorter) is noticed here.
      if (await lastLeftTheChain()) return this.#rewound(await this.#rewind(lease), 0);
      return { indexedTo: last?.number ?? null, blocks: 0 };
    }

    // Nothing to follow: jump to the confirmed head instead of walking every block.
    if (target - next > 1n && !(await applier.needsEveryBlock())) {
      if (await lastLeftTheChain()) return this.#rewound(await this.#rewind(lease), 0);
      const block = await this.#block(target);
      await this.#write(lease, async (tx) => {
        await tx.insert(indexedBlocks).values(block);
        await this.#prune(tx, block.number);
      });
      this.#remember(lease, block);
      return { indexedTo: target, blocks: 1 };
    }

    let blocks = 0;
    while (next <= target && blocks < MAX_BLOCKS_PER_STEP) {
      const block = headBlock?.number === next ? headBlock : await this.#block(next);
      if (last && block.parentHash !== last.hash) return this.#rewound(await this.#rewind(lease), blocks);
      await this.#applyBlock(lease, block);
      last = { number: block.number, hash: block.hash };
      this.#remember(lease, last);
      next += 1n;
      blocks += 1;
    }
    return { indexedTo: last?.number ?? null, blocks };
  }

  #rewound(forkPoint: bigint, blocks: number): StepResult {
    return { indexedTo: forkPoint, blocks, rewoundTo: forkPoint };
  }

  #remember(lease: IndexerLease, block: AppliedBlock): void {
    this.#last = { epoch: lease.epoch, block: { number: block.number, hash: block.hash } };
  }

  /** One block in one transaction: recorded (with the lease check), applied, and the oldest kept block pruned. */
  async #applyBlock(lease: IndexerLease, block: FollowedBlock): Promise<void> {
    const { applier } = this.options;
    const read = await applier.read(block);
    const applied = await this.#write(
      lease,
      async (tx) => {
        const applied = await applier.apply(tx, block, read);
        await this.#prune(tx, block.number);
        return applied;
      },
      (tx) => tx.insert(indexedBlocks).values(block).execute(),
    );
    applier.committed(applied);
  }

  /**
   * Every write: one transaction whose first statement checks the lease is still this replica's, its connection
   * pipelining (src/db/pipeline.ts). `alongside` (a statement that needs no answer) and then the work's first
   * statements are sent right behind the check, without waiting for its answer: one round trip for all of them. The
   * check's answer is awaited before the transaction commits, and a failed check is what the write throws: nothing
   * the work did commits unless the lease is still this replica's.
   */
  #write<T>(
    lease: IndexerLease,
    work: (tx: DbTransaction) => Promise<T>,
    alongside?: (tx: DbTransaction) => PromiseLike<unknown>,
  ): Promise<T> {
    return this.options.database.db.transaction((tx) =>
      pipelining(tx, async () => {
        const checked = together([lease.check(tx), ...(alongside ? [alongside(tx)] : [])]);
        const [, result] = await together([checked, work(tx)]);
        return result;
      }),
    );
  }

  async #block(number: bigint): Promise<FollowedBlock> {
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

  async #lastApplied(lease: IndexerLease): Promise<AppliedBlock | undefined> {
    if (this.#last?.epoch === lease.epoch) return this.#last.block;
    const rows = await this.options.database.db
      .select({ number: indexedBlocks.number, hash: indexedBlocks.hash })
      .from(indexedBlocks)
      .orderBy(desc(indexedBlocks.number))
      .limit(1);
    const row = rows[0];
    const block = row ? { number: row.number, hash: row.hash as Hex } : undefined;
    this.#last = { epoch: lease.epoch, block };
    return block;
  }

  async #prune(tx: DbTransaction, applied: bigint): Promise<void> {
    if (applied > KEPT_BLOCKS) {
      await tx.delete(indexedBlocks).where(sql`${indexedBlocks.number} < ${applied - KEPT_BLOCKS}`);
    }
  }

  /**
   * Finds the newest stored block still on the canonical chain and has the applier undo everything above it, in one
   * transaction with forgetting those blocks. Returns the fork point.
   */
  async #rewind(lease: IndexerLease): Promise<bigint> {
    const { applier } = this.options;
    this.#last = undefined;
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
    const applied = await this.#write(lease, async (tx) => {
      const applied = await applier.rewind(tx, forkPoint);
      await tx.delete(indexedBlocks).where(gt(indexedBlocks.number, forkPoint));
      return applied;
    });
    applier.committed(applied);
    this.options.logger.warn({ forkPoint }, "reorg: rewound the indexer");
    return forkPoint;
  }
}

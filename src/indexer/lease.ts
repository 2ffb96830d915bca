// The indexer's right to write: the indexer advisory lock plus the epoch recorded when it was acquired. A replica
// can lose the lock without noticing (its connection frozen while PostgreSQL dropped the session and another replica
// took over), so the lock alone cannot keep it from writing: every indexer transaction first checks, under a share
// lock on the lease row, that the epoch is still its own. A newer acquisition waits for that transaction to end, and
// after it every such check fails.
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import type { Database, DbTransaction, SessionLock } from "../db/client.ts";

export class IndexerLeaseLostError extends Error {
  override name = "IndexerLeaseLostError";
  constructor(
    readonly epoch: bigint,
    reason: string,
  ) {
    super(`lost the indexer lease (epoch ${epoch}): ${reason}`);
  }
}

export class IndexerLeaseHeldElsewhereError extends Error {
  override name = "IndexerLeaseHeldElsewhereError";
  constructor() {
    super("another replica holds the indexer lock");
  }
}

export class IndexerLease {
  #lostReason: string | undefined;

  private constructor(
    private readonly lock: SessionLock,
    readonly epoch: bigint,
  ) {}

  /** Takes the indexer lock and a new epoch; null while another replica holds the lock. */
  static async acquire(database: Database): Promise<IndexerLease | null> {
    const lock = await database.tryAdvisoryLock(ADVISORY_LOCKS.indexer);
    if (!lock) return null;
    try {
      const rows = await database.query<{ epoch: string }>(
        `insert into indexer_lease (id, epoch, holder, acquired_at) values (1, 1, $1, now())
         on conflict (id) do update
           set epoch = indexer_lease.epoch + 1, holder = excluded.holder, acquired_at = excluded.acquired_at
         returning epoch`,
        [`${hostname()}:${process.pid}`],
      );
      return new IndexerLease(lock, BigInt(rows[0]!.epoch));
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Why this lease no longer holds (its lock session ended, or a check found a newer epoch); undefined while held. */
  get lost(): string | undefined {
    if (this.#lostReason) return this.#lostReason;
    const lockLost = this.lock.lost;
    return lockLost ? `the session holding the indexer lock ended (${lockLost.message})` : undefined;
  }

  /**
   * The first statement of every indexer transaction: throws IndexerLeaseLostError (rolling the transaction back) unless
   * the stored epoch is still this lease's. The row stays share-locked until the transaction ends. The statement is
   * sent before this returns, so one sent right after it follows it (src/db/pipeline.ts).
   */
  async check(tx: DbTransaction): Promise<void> {
    const lost = this.lost;
    if (lost) throw new IndexerLeaseLostError(this.epoch, lost);
    const result = (await tx
      .execute(sql`select epoch from indexer_lease where id = 1 for share`)
      .execute()) as unknown as {
      rows: Array<{ epoch: string }>;
    };
    const stored = result.rows[0]?.epoch;
    if (stored === undefined || BigInt(stored) !== this.epoch) {
      this.#lostReason = `another replica acquired epoch ${stored}`;
      throw new IndexerLeaseLostError(this.epoch, this.#lostReason);
    }
  }

  async release(): Promise<void> {
    await this.lock.release();
  }
}

// A follower's right to write (the indexer's, the points engine's): an advisory lock plus the epoch recorded in the
// follower's lease row when it was acquired. A replica can lose the lock without noticing (its connection frozen while
// PostgreSQL dropped the session and another replica took over), so the lock alone cannot keep it from writing: every
// transaction of the follower first checks, under a share lock on the lease row, that the epoch is still its own. A
// newer acquisition waits for that transaction to end, and after it every such check fails.
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import type { AdvisoryLock } from "./advisory-locks.ts";
import type { Database, Db, SessionLock } from "./client.ts";

/** Which lease: its lock, its one-row table (id, epoch, holder, acquired_at) and the error a lost lease throws. */
export interface EpochLeaseKind {
  lock: AdvisoryLock;
  table: "indexer_lease" | "points_engine_lease";
  /** Who takes it, for the lost-lock reason ("the indexer"). */
  what: string;
  lostError(epoch: bigint, reason: string): Error;
}

export class EpochLease {
  #lostReason: string | undefined;

  protected constructor(
    private readonly kind: EpochLeaseKind,
    private readonly lock: SessionLock,
    readonly epoch: bigint,
  ) {}

  /** Takes the lock and a new epoch, or null while another process holds the lock. */
  protected static async take<Lease extends EpochLease>(
    database: Database,
    kind: EpochLeaseKind,
    holder: string,
    make: (lock: SessionLock, epoch: bigint) => Lease,
  ): Promise<Lease | null> {
    const lock = await database.tryAdvisoryLock(kind.lock);
    if (!lock) return null;
    try {
      const rows = await database.query<{ epoch: string }>(
        `insert into ${kind.table} (id, epoch, holder, acquired_at) values (1, 1, $1, now())
         on conflict (id) do update
           set epoch = ${kind.table}.epoch + 1, holder = excluded.holder, acquired_at = excluded.acquired_at
         returning epoch::text as epoch`,
        [holder],
      );
      return make(lock, BigInt(rows[0]!.epoch));
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Why this lease no longer holds (its lock session ended, or a check found a newer epoch); undefined while held. */
  get lost(): string | undefined {
    if (this.#lostReason) return this.#lostReason;
    const lockLost = this.lock.lost;
    return lockLost
      ? `the session holding the ${this.kind.what} lock ended (${lockLost.message})`
      : undefined;
  }

  /**
   * The first statement of every transaction of the follower: throws the kind's lost error (rolling the transaction
   * back) unless the stored epoch is still this lease's. The row stays share-locked until the transaction ends. The
   * statement is sent before this returns (not at the first `then` of drizzle's lazy query), so one sent right after
   * it follows it (src/db/pipeline.ts).
   */
  async check(tx: Pick<Db, "execute">): Promise<void> {
    const lost = this.lost;
    if (lost) throw this.kind.lostError(this.epoch, lost);
    const result = (await tx
      .execute(
        sql`select epoch::text as epoch from ${sql.identifier(this.kind.table)} where id = 1 for share`,
      )
      .execute()) as unknown as { rows: Array<{ epoch: string }> };
    const stored = result.rows[0]?.epoch;
    if (stored === undefined || BigInt(stored) !== this.epoch) {
      this.#lostReason = `another process acquired epoch ${stored}`;
      throw this.kind.lostError(this.epoch, this.#lostReason);
    }
  }

  async release(): Promise<void> {
    await this.lock.release();
  }
}

/** This process, as lease rows and lost-lease reasons name it. */
export function processHolder(): string {
  return `${hostname()}:${process.pid}`;
}

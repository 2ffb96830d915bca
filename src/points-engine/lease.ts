// The points engine's right to write: its own advisory lock plus the epoch recorded when it was acquired — the
// indexer's scheme (src/indexer/lease.ts). A replica can lose the lock without noticing (its connection frozen while
// PostgreSQL dropped the session and another replica took over), so every engine transaction first checks, under a
// share lock on the lease row, that the epoch is still its own; a newer acquisition waits for that transaction, and
// after it every such check fails.
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import type { Database, SessionLock } from "../db/client.ts";
import { type SqlSession, selectRows } from "../shared/sql-session.ts";
import { PointsEngineLeaseLostError } from "./errors.ts";

export class PointsEngineLease {
  #lostReason: string | undefined;

  private constructor(
    private readonly lock: SessionLock,
    readonly epoch: bigint,
  ) {}

  /** Takes the engine lock and a new epoch; null while another process holds the lock. */
  static async acquire(
    database: Database,
    holder = `${hostname()}:${process.pid}`,
  ): Promise<PointsEngineLease | null> {
    const lock = await database.tryAdvisoryLock(ADVISORY_LOCKS.pointsEngine);
    if (!lock) return null;
    try {
      const rows = await database.query<{ epoch: string }>(
        `insert into points_engine_lease (id, epoch, holder, acquired_at) values (1, 1, $1, now())
         on conflict (id) do update
           set epoch = points_engine_lease.epoch + 1, holder = excluded.holder, acquired_at = excluded.acquired_at
         returning epoch::text as epoch`,
        [holder],
      );
      return new PointsEngineLease(lock, BigInt(rows[0]!.epoch));
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Why this lease no longer holds; undefined while held. */
  get lost(): string | undefined {
    if (this.#lostReason) return this.#lostReason;
    const lockLost = this.lock.lost;
    return lockLost ? `the session holding the points engine lock ended (${lockLost.message})` : undefined;
  }

  /** The first statement of every engine transaction: throws PointsEngineLeaseLostError unless the epoch is ours. */
  async check(tx: SqlSession): Promise<void> {
    const lost = this.lost;
    if (lost) throw new PointsEngineLeaseLostError(this.epoch, lost);
    const rows = await selectRows<{ epoch: string }>(
      tx,
      sql`select epoch::text as epoch from points_engine_lease where id = 1 for share`,
    );
    const stored = rows[0]?.epoch;
    if (stored === undefined || BigInt(stored) !== this.epoch) {
      this.#lostReason = `another process acquired epoch ${stored}`;
      throw new PointsEngineLeaseLostError(this.epoch, this.#lostReason);
    }
  }

  async release(): Promise<void> {
    await this.lock.release();
  }
}

/** Who holds the engine lease by the stored row (for `sluice points engine status`); undefined before the first. */
export async function readLeaseHolder(
  database: Database,
): Promise<{ epoch: bigint; holder: string; acquiredAt: Date } | undefined> {
  const [row] = await database.query<{ epoch: string; holder: string; acquired_at: Date | string }>(
    "select epoch::text as epoch, holder, acquired_at from points_engine_lease where id = 1",
  );
  return row && { epoch: BigInt(row.epoch), holder: row.holder, acquiredAt: new Date(row.acquired_at) };
}

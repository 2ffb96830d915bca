// The points engine's right to write: its own advisory lock plus the epoch recorded in points_engine_lease when it
// was acquired — the indexer's scheme (src/db/epoch-lease.ts): every engine transaction first checks that the epoch is
// still its own.
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import type { Database } from "../db/client.ts";
import { EpochLease, type EpochLeaseKind, processHolder } from "../db/epoch-lease.ts";
import { PointsEngineLeaseLostError } from "./errors.ts";

const POINTS_ENGINE_LEASE: EpochLeaseKind = {
  lock: ADVISORY_LOCKS.pointsEngine,
  table: "points_engine_lease",
  what: "points engine",
  lostError: (epoch, reason) => new PointsEngineLeaseLostError(epoch, reason),
};

export class PointsEngineLease extends EpochLease {
  /** Takes the engine lock and a new epoch; null while another process holds the lock. */
  static acquire(database: Database, holder = processHolder()): Promise<PointsEngineLease | null> {
    return EpochLease.take(
      database,
      POINTS_ENGINE_LEASE,
      holder,
      (lock, epoch) => new PointsEngineLease(POINTS_ENGINE_LEASE, lock, epoch),
    );
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

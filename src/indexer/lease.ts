// The indexer's right to write: the indexer advisory lock plus the epoch recorded in indexer_lease (the scheme is
// src/db/epoch-lease.ts's): every indexer transaction first checks that the epoch is still its own.
import { ADVISORY_LOCKS } from "../db/advisory-locks.ts";
import type { Database } from "../db/client.ts";
import { EpochLease, type EpochLeaseKind, processHolder } from "../db/epoch-lease.ts";

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

const INDEXER_LEASE: EpochLeaseKind = {
  lock: ADVISORY_LOCKS.indexer,
  table: "indexer_lease",
  what: "indexer",
  lostError: (epoch, reason) => new IndexerLeaseLostError(epoch, reason),
};

export class IndexerLease extends EpochLease {
  /** Takes the indexer lock and a new epoch; null while another replica holds the lock. */
  static acquire(database: Database): Promise<IndexerLease | null> {
    return EpochLease.take(
      database,
      INDEXER_LEASE,
      processHolder(),
      (lock, epoch) => new IndexerLease(INDEXER_LEASE, lock, epoch),
    );
  }
}

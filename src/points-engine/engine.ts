// The points engine as a running part: one process at a time holds its lease (lease.ts) and steps the follower
// (follower.ts) at every new head, until it has caught up with the head less the confirmations; the others stand by
// and try for the lease every poll interval (the loop every leased chain follower runs: src/chain/leased-head-loop.ts).
// A failed step (the RPC or the database out of reach) is retried at the next head or after a poll interval; the
// in-memory ledger is then restored from the database, which holds the state after the last committed step. `backfill` runs the same steps once, to the head, reporting its progress.
import type { HeadSource } from "../chain/heads.ts";
import { LeasedHeadLoop } from "../chain/leased-head-loop.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { PointsEngineBusyError, PointsEngineLeaseLostError } from "./errors.ts";
import type { FollowStep, PointsFollower } from "./follower.ts";
import { PointsEngineLease, readLeaseHolder } from "./lease.ts";

export interface PointsEngineOptions {
  database: Database;
  follower: PointsFollower;
  logger: Logger;
  /** New heads: it steps as soon as one arrives. Without, every poll interval. */
  heads?: HeadSource;
  /** Without heads, how often it steps; with heads, how soon a failed step, or a process standing by, tries again. */
  pollIntervalMs?: number;
}

export interface BackfillProgress {
  /** The block the engine is at (null before its first). */
  position: bigint | null;
  /** Where this backfill goes: the head less the confirmations when it started. */
  target: bigint;
  /** Where it started. */
  startedAt: bigint | null;
  blocks: number;
  events: number;
  rewoundTo?: bigint;
}

export class PointsEngine {
  readonly #loop: LeasedHeadLoop<PointsEngineLease>;

  constructor(private readonly options: PointsEngineOptions) {
    this.#loop = new LeasedHeadLoop({
      logger: options.logger,
      ...(options.heads ? { heads: options.heads } : {}),
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      acquire: () => PointsEngineLease.acquire(options.database),
      isLeaseLost: (error) => error instanceof PointsEngineLeaseLostError,
      catchUp: (lease) => this.#catchUp(lease),
      // Another process may have computed while this one stood by: the ledger is read again from the database.
      onLeaseChange: () => options.follower.forget(),
      messages: {
        acquired: "acquired the points engine lease: computing points",
        lost: "lost the points engine lease: stopped computing until it is acquired again",
        failed: "points engine step failed; retrying",
      },
    });
  }

  /** The epoch of the lease this process holds while it computes; undefined while it stands by. */
  get epoch(): bigint | undefined {
    return this.#loop.lease?.epoch;
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #catchUp(lease: PointsEngineLease): Promise<void> {
    for (;;) {
      const step = await this.options.follower.step(lease);
      if (this.#loop.stopped) return;
      if (step.rewoundTo === undefined && (step.blocks === 0 || step.position === step.target)) return;
    }
  }
}

/**
 * Computes up to the head (less the confirmations) as it is when called, after rewinding to `from - 1` when `from`
 * is given (to the newest kept block at or below it; where none is kept, from the start block). Takes the engine
 * lease for its run: PointsEngineBusyError while another process holds it.
 */
export async function backfill(options: {
  database: Database;
  follower: PointsFollower;
  from?: bigint;
  onProgress?: (progress: BackfillProgress) => void;
  /** Stops after the step in flight when it returns true (Ctrl-C). */
  stopped?: () => boolean;
}): Promise<BackfillProgress> {
  const lease = await PointsEngineLease.acquire(options.database, `backfill ${process.pid}`);
  if (!lease) {
    const holder = await readLeaseHolder(options.database).catch(() => undefined);
    throw new PointsEngineBusyError(holder?.holder);
  }
  try {
    let rewoundTo: bigint | undefined;
    if (options.from !== undefined) {
      const position = await options.follower.rewindTo(lease, options.from - 1n);
      rewoundTo = position ?? -1n;
    }
    let step: FollowStep = await options.follower.step(lease);
    const target = step.target;
    const progress: BackfillProgress = {
      position: step.position,
      target,
      startedAt: step.position === null ? null : step.position - BigInt(step.blocks),
      blocks: step.blocks,
      events: step.events,
      ...(rewoundTo === undefined ? {} : { rewoundTo }),
    };
    options.onProgress?.(progress);
    while ((step.position ?? -1n) < target && !options.stopped?.()) {
      step = await options.follower.step(lease);
      progress.position = step.position;
      progress.blocks += step.blocks;
      progress.events += step.events;
      if (step.rewoundTo !== undefined) progress.rewoundTo = step.rewoundTo;
      options.onProgress?.(progress);
      if (step.blocks === 0 && step.rewoundTo === undefined) break;
    }
    return progress;
  } finally {
    await lease.release();
  }
}

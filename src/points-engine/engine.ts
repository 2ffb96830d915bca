// The points engine as a running part: one process at a time holds its lease (lease.ts) and steps the follower
// (follower.ts) at every new head, until it has caught up with the head less the confirmations; the others stand by
// and try for the lease every poll interval. A failed step (the RPC or the database out of reach) is retried at the
// next head or after a poll interval; the in-memory ledger is then restored from the database, which holds the state
// after the last committed step. `backfill` runs the same steps once, to the head, reporting its progress.
import type { HeadSource } from "../chain/heads.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
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
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #unfollow: (() => void) | undefined;
  #again = false;
  #lease: PointsEngineLease | null = null;
  #stopped = true;

  constructor(private readonly options: PointsEngineOptions) {}

  /** The epoch of the lease this process holds while it computes; undefined while it stands by. */
  get epoch(): bigint | undefined {
    return this.#lease?.epoch;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#unfollow = this.options.heads?.onHead(() => this.#wake());
    this.#wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unfollow?.();
    this.#unfollow = undefined;
    clearTimeout(this.#timer);
    await this.#running;
    await this.#lease?.release().catch(() => {});
    this.#lease = null;
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = this.#tick().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.#wake();
      }
    });
  }

  async #tick(): Promise<void> {
    let caughtUp = false;
    try {
      const lease = await this.#heldLease();
      if (lease) {
        for (;;) {
          const step = await this.options.follower.step(lease);
          if (this.#stopped) break;
          if (step.rewoundTo === undefined && (step.blocks === 0 || step.position === step.target)) break;
        }
        caughtUp = true;
      }
    } catch (error) {
      if (error instanceof PointsEngineLeaseLostError) await this.#dropLease(error.message);
      else
        this.options.logger[failureLevel(error, "error")](
          { err: error },
          "points engine step failed; retrying",
        );
    }
    if (!this.#stopped && (!this.options.heads || !caughtUp))
      this.#timer = setTimeout(() => this.#wake(), this.options.pollIntervalMs ?? 1000);
  }

  async #heldLease(): Promise<PointsEngineLease | null> {
    const lost = this.#lease?.lost;
    if (lost) await this.#dropLease(lost);
    if (this.#lease) return this.#lease;
    this.#lease = await PointsEngineLease.acquire(this.options.database);
    if (this.#lease) {
      // Another process may have computed while this one stood by: the ledger is read again from the database.
      this.options.follower.forget();
      this.options.logger.info(
        { epoch: this.#lease.epoch },
        "acquired the points engine lease: computing points",
      );
    }
    return this.#lease;
  }

  async #dropLease(reason: string): Promise<void> {
    const lease = this.#lease;
    if (!lease) return;
    this.#lease = null;
    this.options.follower.forget();
    this.options.logger.warn(
      { epoch: lease.epoch, reason },
      "lost the points engine lease: stopped computing until it is acquired again",
    );
    await lease.release().catch(() => {});
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

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
import { readPosition } from "./store/position.ts";

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
  /** Blocks and stake events this process computed. */
  blocks: number;
  events: number;
  rewoundTo?: bigint;
  /** Blocks another process (the running engine) computed while this one followed it. */
  followed?: { holder: string; blocks: number };
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

  /**
   * `backfill` run by this process while its engine runs (a command beside a server on an embedded database): the
   * running loop gives up the lease for it and takes it up again after.
   */
  async runBackfill(
    options: Omit<Parameters<typeof backfill>[0], "database" | "follower">,
  ): Promise<BackfillProgress> {
    const running = !this.#loop.stopped;
    await this.#loop.stop();
    try {
      return await backfill({ ...options, database: this.options.database, follower: this.options.follower });
    } finally {
      if (running) this.#loop.start();
    }
  }

  async #catchUp(lease: PointsEngineLease): Promise<void> {
    try {
      for (;;) {
        const step = await this.options.follower.step(lease, { pipelined: true });
        if (this.#loop.stopped) return;
        if (step.rewoundTo === undefined && (step.blocks === 0 || step.position === step.target)) return;
      }
    } finally {
      // Nothing of this process's steps is left committing once it stops or gives the lease up.
      await this.options.follower.settle();
    }
  }
}

/**
 * Computes up to the head (less the confirmations) as it is when called, after rewinding to `from - 1` when `from`
 * is given (to the newest kept block at or below it; where none is kept, from the start block). Takes the engine
 * lease for its run. While another process holds it: PointsEngineBusyError, or — with `followRunningEngine` and no
 * `from` — that process is computing already, so this one follows its stored position up to the target, taking the
 * lease over should that process stop first.
 */
export async function backfill(options: {
  database: Database;
  follower: PointsFollower;
  from?: bigint;
  onProgress?: (progress: BackfillProgress) => void;
  /** Stops after the step in flight when it returns true (Ctrl-C). */
  stopped?: () => boolean;
  followRunningEngine?: { pollMs?: number };
}): Promise<BackfillProgress> {
  let lease = await PointsEngineLease.acquire(options.database, `backfill ${process.pid}`);
  let followed: BackfillProgress | undefined;
  if (!lease) {
    const holder = await readLeaseHolder(options.database).catch(() => undefined);
    if (!options.followRunningEngine || options.from !== undefined)
      throw new PointsEngineBusyError(holder?.holder);
    const run = await followHolder(options, holder?.holder, options.followRunningEngine.pollMs ?? 500);
    if (!run.lease) return run.progress;
    lease = run.lease;
    followed = run.progress;
  }
  try {
    let rewoundTo: bigint | undefined;
    if (options.from !== undefined) {
      const position = await options.follower.rewindTo(lease, options.from - 1n);
      rewoundTo = position ?? -1n;
    }
    // Pipelined: each step computes its range while the step before commits (settled before the lease is released).
    let step: FollowStep = await options.follower.step(lease, { pipelined: true });
    const target = step.target;
    const progress: BackfillProgress = {
      position: step.position,
      target,
      startedAt: followed
        ? followed.startedAt
        : step.position === null
          ? null
          : step.position - BigInt(step.blocks),
      blocks: step.blocks,
      events: step.events,
      ...(rewoundTo === undefined ? {} : { rewoundTo }),
      ...(followed?.followed ? { followed: followed.followed } : {}),
    };
    options.onProgress?.(progress);
    while ((step.position ?? -1n) < target && !options.stopped?.()) {
      step = await options.follower.step(lease, { pipelined: true });
      progress.position = step.position;
      progress.blocks += step.blocks;
      progress.events += step.events;
      if (step.rewoundTo !== undefined) progress.rewoundTo = step.rewoundTo;
      options.onProgress?.(progress);
      if (step.blocks === 0 && step.rewoundTo === undefined) break;
    }
    await options.follower.settle();
    return progress;
  } finally {
    // After a failure the step in flight only needs to have ended (its error is not the one to report).
    await options.follower.settle().catch(() => {});
    await lease.release();
  }
}

/**
 * Follows the stored position of the process holding the lease up to the target as it is now; returns with the lease
 * when that process gave it up before the target (this one then computes the rest itself).
 */
async function followHolder(
  options: {
    database: Database;
    follower: PointsFollower;
    onProgress?: (progress: BackfillProgress) => void;
    stopped?: () => boolean;
  },
  holder: string | undefined,
  pollMs: number,
): Promise<{ progress: BackfillProgress; lease?: PointsEngineLease }> {
  const target = await options.follower.target();
  const first = (await readPosition(options.database))?.blockNumber ?? null;
  const followed = { holder: holder ?? "another process", blocks: 0 };
  const progress: BackfillProgress = {
    position: first,
    target,
    startedAt: first,
    blocks: 0,
    events: 0,
    followed,
  };
  for (;;) {
    const position = (await readPosition(options.database))?.blockNumber ?? null;
    progress.position = position;
    followed.blocks = position === null || first === null ? 0 : Number(position - first);
    options.onProgress?.(progress);
    if ((position ?? -1n) >= target || options.stopped?.()) return { progress };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const lease = await PointsEngineLease.acquire(options.database, `backfill ${process.pid}`);
    if (lease) return { progress, lease };
  }
}

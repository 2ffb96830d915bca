// The parts that follow the chain from a stored position (the Reactor indexer; the points engine when one is
// configured): each says where it is and where it could be, read from the database so any replica answers for the
// one that runs it. Adding one gives it a readiness check (lagging beyond its bound fails it) and its gauges
// (src/http/metrics.ts reads `all()` at each scrape).
import type { CheckOutcome, ReadinessChecks } from "./checks.ts";

export interface FollowerPosition {
  /** The newest block it has fully processed; null before its first. */
  position: bigint | null;
  /** The newest block it could have processed now (the head less its confirmation depth). */
  target: bigint;
  /** How many blocks it is behind `target` (never negative). */
  lagBlocks: bigint;
}

export interface ChainFollower {
  /** `indexer`, `points-engine`: the readiness check's name and the gauges' `follower` label. */
  name: string;
  /** Beyond this many blocks behind, the venue is not ready (and the alert compares the lag with it). */
  maxLagBlocks: number;
  read(): Promise<FollowerPosition>;
}

export class ChainFollowers {
  readonly #followers = new Map<string, ChainFollower>();

  constructor(private readonly readiness: ReadinessChecks) {}

  /** Follows `follower` in readiness and metrics; the returned function stops that. */
  add(follower: ChainFollower): () => void {
    const unregister = this.readiness.register({ name: follower.name, run: () => followerCheck(follower) });
    this.#followers.set(follower.name, follower);
    return () => {
      unregister();
      if (this.#followers.get(follower.name) === follower) this.#followers.delete(follower.name);
    };
  }

  all(): ChainFollower[] {
    return [...this.#followers.values()];
  }
}

async function followerCheck(follower: ChainFollower): Promise<CheckOutcome> {
  const { position, target, lagBlocks } = await follower.read();
  const details = {
    position: position === null ? null : position.toString(),
    target: target.toString(),
    lagBlocks: Number(lagBlocks),
    maxLagBlocks: follower.maxLagBlocks,
  };
  const where = position === null ? "nothing processed yet" : `at block ${position}`;
  if (lagBlocks > BigInt(follower.maxLagBlocks))
    return {
      ok: false,
      message: `${where}, ${lagBlocks} blocks behind block ${target} (at most ${follower.maxLagBlocks})`,
      details,
    };
  // Its position can be past this replica's head: another replica's indexer may have read a newer one.
  const behind =
    lagBlocks === 0n ? `caught up with block ${target}` : `${lagBlocks} blocks behind block ${target}`;
  return { ok: true, message: `${where}, ${behind}`, details };
}

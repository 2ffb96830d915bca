// Which snapshots answer a query. Snapshots are immutable, so their block numbers are held in memory per
// points type and choosing "current" or "nearest to block N" costs a binary search, never a query.

export interface SnapshotRef {
  id: number;
  pointsType: string;
  blockNumber: number;
}

export class SnapshotIndex {
  /** Per points type (ascending by name), its snapshots ascending by block. */
  readonly #byType: ReadonlyArray<readonly SnapshotRef[]>;
  readonly #knownVaults: ReadonlySet<string>;

  constructor(snapshots: readonly SnapshotRef[], knownVaults: Iterable<string>) {
    const byType = new Map<string, SnapshotRef[]>();
    for (const snapshot of snapshots) {
      const list = byType.get(snapshot.pointsType) ?? [];
      list.push(snapshot);
      byType.set(snapshot.pointsType, list);
    }
    this.#byType = [...byType.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([, list]) => list.sort((a, b) => a.blockNumber - b.blockNumber));
    this.#knownVaults = new Set(knownVaults);
  }

  /** True when no snapshot has been ingested at all. */
  get isEmpty(): boolean {
    return this.#byType.length === 0;
  }

  /** Each points type's newest snapshot, ordered by points type. */
  current(): SnapshotRef[] {
    return this.#byType.map((list) => list[list.length - 1]!);
  }

  /** Each points type's snapshot nearest to `blockNumber` (the earlier one on a tie), ordered by points type. */
  nearest(blockNumber: number): SnapshotRef[] {
    return this.#byType.map((list) => nearestIn(list, blockNumber));
  }

  /** Whether any snapshot has points in this (lowercase) vault. */
  knowsVault(address: string): boolean {
    return this.#knownVaults.has(address);
  }
}

function nearestIn(list: readonly SnapshotRef[], blockNumber: number): SnapshotRef {
  // First snapshot at or after the block.
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]!.blockNumber < blockNumber) low = middle + 1;
    else high = middle;
  }
  const after = list[low];
  const before = list[low - 1];
  if (!after) return before!;
  if (!before) return after;
  return blockNumber - before.blockNumber <= after.blockNumber - blockNumber ? before : after;
}

/** Code-point order, the same as the database's "C" collation for these strings. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

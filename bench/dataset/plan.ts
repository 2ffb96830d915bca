// The shape of the partner benchmark dataset, as data: how many receiver rows the current snapshot has and
// how they are spread over the registry's vaults, which points types exist, and how many historical
// snapshots of which size. Everything that decides a row is here or derived from here with a seeded PRNG,
// and the plan's JSON is the dataset's fingerprint: change anything and the stored dataset is regenerated.

export interface PointsTypePlan {
  name: string;
  decimals: number;
  firstBlock: number;
  blockInterval: number;
  /** Snapshots before the current one. */
  historicalSnapshots: number;
  /** Rows of each historical snapshot (before duplicates are added up). */
  historicalRows: number;
  /** Vaults a historical snapshot's rows are spread over. */
  historicalVaults: number;
  /** Rows of the current snapshot; `currentRows` of the plan for the main type. */
  currentRows: number;
}

export interface PartnerDatasetPlan {
  /** Bumped when the generator changes what it writes for the same plan. */
  version: number;
  seed: number;
  /** The main type ("sluice") is the first; its current snapshot holds `currentRows` receiver rows. */
  types: PointsTypePlan[];
  /** Receiver rows of the main type's current snapshot. */
  currentRows: number;
  /** Receivers of the few very large vaults. */
  largeVaultSizes: number[];
  /** A middle tier: this many vaults with log-uniform sizes in [min, max]. */
  midVaults: { count: number; min: number; max: number };
  /** Every other vault: log-uniform weights in [min, max], scaled so the snapshot has exactly `currentRows`. */
  smallVaults: { min: number; max: number };
  /** Receivers are drawn from a pool of 2^bits addresses (at least the largest vault's size). */
  receiverPoolBits: number;
  /** How many vaults the benchmark's receiver is in (in the main type's current snapshot). */
  receiverVaults: number;
  /** Receivers of the partner types and of historical snapshots come from this many pool addresses. */
  smallPoolSize: number;
}

/** The dataset the partner suite's issue asks for: 1,000,000 current rows, 1,000 historical snapshots. */
export const FULL_PLAN: PartnerDatasetPlan = {
  version: 1,
  seed: 0x5b1ce,
  types: [
    {
      name: "sluice",
      decimals: 48,
      firstBlock: 20_000_000,
      blockInterval: 7_200,
      historicalSnapshots: 400,
      historicalRows: 200,
      historicalVaults: 20,
      currentRows: 1_000_000,
    },
    {
      name: "primev",
      decimals: 18,
      firstBlock: 20_003_600,
      blockInterval: 9_600,
      historicalSnapshots: 300,
      historicalRows: 200,
      historicalVaults: 20,
      currentRows: 5_000,
    },
    {
      name: "kalypso",
      decimals: 18,
      firstBlock: 20_001_000,
      blockInterval: 9_600,
      historicalSnapshots: 300,
      historicalRows: 200,
      historicalVaults: 20,
      currentRows: 5_000,
    },
  ],
  currentRows: 1_000_000,
  largeVaultSizes: [300_000, 180_000, 130_000, 110_000],
  midVaults: { count: 12, min: 8_000, max: 25_000 },
  smallVaults: { min: 100, max: 2_000 },
  receiverPoolBits: 19,
  receiverVaults: 5,
  smallPoolSize: 4_096,
};

/**
 * The same dataset with the main type's current snapshot scaled down by `factor` (vault sizes included, so
 * the skew keeps its shape); used where loading the full size takes too long (PGlite).
 */
export function scaledPlan(plan: PartnerDatasetPlan, factor: number): PartnerDatasetPlan {
  if (factor === 1) return plan;
  const scale = (value: number) => Math.max(1, Math.round(value * factor));
  const currentRows = scale(plan.currentRows);
  const largeVaultSizes = plan.largeVaultSizes.map(scale);
  return {
    ...plan,
    currentRows,
    types: plan.types.map((type, index) => (index === 0 ? { ...type, currentRows } : type)),
    largeVaultSizes,
    // The pool shrinks with the rows, so receivers still sit in about two vaults on average (as in the full
    // plan) and one in exactly `receiverVaults` vaults exists.
    receiverPoolBits: Math.ceil(Math.log2(Math.max(...largeVaultSizes, currentRows / 2))),
    midVaults: { ...plan.midVaults, min: scale(plan.midVaults.min), max: scale(plan.midVaults.max) },
  };
}

export function mainType(plan: PartnerDatasetPlan): PointsTypePlan {
  return plan.types[0]!;
}

/** Block of a type's snapshot number `index` (the current one is number `historicalSnapshots`). */
export function snapshotBlock(type: PointsTypePlan, index: number): number {
  return type.firstBlock + index * type.blockInterval;
}

export function currentBlock(type: PointsTypePlan): number {
  return snapshotBlock(type, type.historicalSnapshots);
}

export function fingerprint(plan: PartnerDatasetPlan): string {
  return JSON.stringify(plan);
}

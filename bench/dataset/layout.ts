// Where the main type's current snapshot puts its rows: each vault's receiver count (skewed: a few huge
// vaults, a middle tier, most vaults with hundreds) and which receivers it holds. A vault's receivers are an
// arithmetic progression over a pool of 2^bits receiver numbers (odd stride, so no receiver twice), which
// makes "is receiver j in vault v" a constant-time test: the benchmark's receiver in exactly N vaults is
// found without ever holding the million rows.
import type { Address } from "viem";
import type { PointsRow } from "../../src/points/writer.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { mainType, type PartnerDatasetPlan } from "./plan.ts";
import { logUniform, receiverAddress } from "./random.ts";

export interface VaultSlot {
  vault: Address;
  receivers: number;
  /** First pool number and the (odd) step between consecutive receivers of this vault. */
  offset: number;
  stride: number;
  /** stride⁻¹ mod 2^bits, for the membership test. */
  inverse: number;
}

export interface CurrentLayout {
  poolSize: number;
  slots: VaultSlot[];
}

/** Sizes the vaults (in a seeded order, so the large ones are arbitrary registry vaults) and places them. */
export function layoutCurrentSnapshot(plan: PartnerDatasetPlan, vaults: readonly Address[]): CurrentLayout {
  const random = mulberry32(plan.seed);
  const poolSize = 2 ** plan.receiverPoolBits;
  const sizes = vaultSizes(plan, vaults.length, random);
  if (Math.max(...sizes) > poolSize) throw new Error("the receiver pool is smaller than the largest vault");
  const order = shuffled(
    [...vaults].sort((a, b) => (a < b ? -1 : 1)),
    random,
  );
  const slots = order.map((vault, index): VaultSlot => {
    const stride = (Math.floor(random() * poolSize) | 1) % poolSize;
    return {
      vault,
      receivers: sizes[index]!,
      offset: Math.floor(random() * poolSize),
      stride,
      inverse: inverseModPowerOfTwo(stride, plan.receiverPoolBits),
    };
  });
  return { poolSize, slots };
}

function vaultSizes(plan: PartnerDatasetPlan, vaultCount: number, random: () => number): number[] {
  const large = plan.largeVaultSizes;
  const mid = Array.from({ length: plan.midVaults.count }, () =>
    Math.round(logUniform(random, plan.midVaults.min, plan.midVaults.max)),
  );
  const smallCount = vaultCount - large.length - mid.length;
  if (smallCount < 1) throw new Error(`the registry has ${vaultCount} vaults: too few for the plan`);
  const remaining = plan.currentRows - sum(large) - sum(mid);
  if (remaining < smallCount) throw new Error("the plan's large and middle vaults take every row");
  // Weights, scaled to exactly the remaining rows; the rounding difference goes to the biggest small vault.
  const weights = Array.from({ length: smallCount }, () =>
    logUniform(random, plan.smallVaults.min, plan.smallVaults.max),
  );
  const scale = remaining / sum(weights);
  const small = weights.map((weight) => Math.max(1, Math.round(weight * scale)));
  const biggest = small.indexOf(Math.max(...small));
  small[biggest]! += remaining - sum(small);
  return [...large, ...mid, ...small];
}

/** Receiver number of row `i` of a vault. Products stay below 2^53, so plain numbers are exact. */
export function receiverNumber(slot: VaultSlot, i: number, poolSize: number): number {
  return (slot.offset + i * slot.stride) % poolSize;
}

export function holdsReceiver(slot: VaultSlot, receiver: number, poolSize: number): boolean {
  const steps = (((receiver - slot.offset) % poolSize) + poolSize) % poolSize;
  return (steps * slot.inverse) % poolSize < slot.receivers;
}

/** The lowest receiver number that is in exactly `count` vaults, and those vaults. */
export function receiverInVaults(
  layout: CurrentLayout,
  count: number,
): { receiver: number; vaults: Address[] } {
  for (let receiver = 0; receiver < layout.poolSize; receiver++) {
    const vaults = layout.slots
      .filter((slot) => holdsReceiver(slot, receiver, layout.poolSize))
      .map((slot) => slot.vault);
    if (vaults.length === count) return { receiver, vaults: vaults.sort() };
  }
  throw new Error(`no receiver is in exactly ${count} vaults`);
}

/**
 * The current snapshot's rows, vault by vault, generated as they are consumed (never a million objects at
 * once). Each row's receiver type and points come from a PRNG seeded per vault.
 */
export function* currentRows(plan: PartnerDatasetPlan, layout: CurrentLayout): Generator<PointsRow> {
  const unit = 10n ** BigInt(mainType(plan).decimals);
  const fractionUnit = unit / 1_000_000_000n;
  for (const [index, slot] of layout.slots.entries()) {
    const random = mulberry32(plan.seed ^ ((index + 1) * 0x9e3779b1));
    for (let i = 0; i < slot.receivers; i++) {
      yield {
        vault: slot.vault,
        receiver: receiverAddress(receiverNumber(slot, i, layout.poolSize), plan.seed),
        receiverType: pickReceiverType(random()),
        points: pointsAmount(random, unit, fractionUnit),
      };
    }
  }
}

export function pickReceiverType(draw: number): string {
  if (draw < 0.9) return "staker";
  return draw < 0.97 ? "operator" : "network";
}

/** Whole points heavily skewed towards small holdings (1 to 1,000,000), plus a 9-digit fraction. */
export function pointsAmount(random: () => number, unit: bigint, fractionUnit: bigint): bigint {
  const whole = BigInt(1 + Math.floor(random() ** 3 * 1_000_000));
  return whole * unit + BigInt(Math.floor(random() * 1e9)) * fractionUnit;
}

function inverseModPowerOfTwo(odd: number, bits: number): number {
  // Newton's iteration doubles the correct low bits each step; BigInt keeps the products exact.
  const modulus = 1n << BigInt(bits);
  const a = BigInt(odd);
  let x = a;
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) % modulus;
  return Number(((x % modulus) + modulus) % modulus);
}

/** Fisher–Yates in place, driven by the seeded PRNG. */
export function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

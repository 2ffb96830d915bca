// The inventory model of DESIGN.md §4: which adapter legs each solver is offered for tokenIn → tokenOut, and
// the liquidity those legs add up to. Pure functions over one block's adapter states, so the rules are tested
// without a chain.
import type { Address, Hex } from "viem";
import { type AdapterState, type InventorySnapshot, isAuthorizedOn, isUsable } from "./adapter-state.ts";

const RATE_SCALE = 10n ** 18n;
const PPM = 1_000_000n;

/** A live, validated discount on an adapter for the snapshot's input token. */
export interface DiscountOffer {
  discountId: Hex;
  adapter: Address;
  discountPpm: bigint;
}

/** One adapter offered to a solver: the `adapters[]` entry of a solver quote request. */
export interface Leg {
  adapter: Address;
  asset: Address;
  assetDecimals: number;
  maxAssets: bigint;
  /** 1e18-scaled rate the solver may use on this leg. */
  maxRate: bigint;
  /** Present on discount legs: the discount to resolve before filling. */
  discountId?: Hex;
}

/** The part of a solver's configuration the inventory model looks at. */
export interface InventorySolver {
  id: string;
  filler: Address;
  internal: boolean;
  enabled: boolean;
}

/** The discounted rate of a discount leg: the oracle rate less the discount, 1e18-scaled. */
export function discountedRate(state: AdapterState, discountPpm: bigint): bigint {
  const discountedPerUnit = (state.oracleAmountOutPerUnit * (PPM - discountPpm)) / PPM;
  return (discountedPerUnit * RATE_SCALE) / 10n ** BigInt(state.assetDecimals);
}

function legFrom(state: AdapterState, maxRate: bigint, discountId?: Hex): Leg {
  return {
    adapter: state.adapter,
    asset: state.asset,
    assetDecimals: state.assetDecimals,
    maxAssets: state.maxAssets,
    maxRate,
    ...(discountId ? { discountId } : {}),
  };
}

/** Direct legs: usable adapters on which the solver's filler is authorized. */
export function directLegs(solver: InventorySolver, snapshot: InventorySnapshot, tokenOut: Address): Leg[] {
  return snapshot.adapters
    .filter((state) => isUsable(state, tokenOut) && isAuthorizedOn(state, solver.filler))
    .map((state) => legFrom(state, state.maxRate));
}

/** Discount legs: usable adapters with a live discount (validated by the caller against chain state). */
export function discountLegs(
  snapshot: InventorySnapshot,
  tokenOut: Address,
  discounts: readonly DiscountOffer[],
): Leg[] {
  const byAdapter = new Map(snapshot.adapters.map((state) => [state.adapter, state]));
  const legs: Leg[] = [];
  for (const discount of discounts) {
    const state = byAdapter.get(discount.adapter);
    if (!state || !isUsable(state, tokenOut)) continue;
    legs.push(legFrom(state, discountedRate(state, discount.discountPpm), discount.discountId));
  }
  return legs;
}

/**
 * The legs a solver is offered: its direct legs, plus every discount leg when it is internal. A disabled
 * solver is offered nothing. Both kinds of leg on one adapter are sent as alternatives.
 */
export function offeredLegs(
  solver: InventorySolver,
  snapshot: InventorySnapshot,
  tokenOut: Address,
  discounts: readonly DiscountOffer[],
): Leg[] {
  if (!solver.enabled) return [];
  const direct = directLegs(solver, snapshot, tokenOut);
  return solver.internal ? [...direct, ...discountLegs(snapshot, tokenOut, discounts)] : direct;
}

/** Capacity of a set of legs, counting each adapter once. */
export function capacityOf(legs: readonly Leg[]): bigint {
  const byAdapter = new Map<Address, bigint>();
  for (const leg of legs) byAdapter.set(leg.adapter, leg.maxAssets);
  let total = 0n;
  for (const capacity of byAdapter.values()) total += capacity;
  return total;
}

export interface SolverLiquidity {
  solverId: string;
  liquidity: bigint;
}

export interface LiquidityReport {
  totalLiquidity: bigint;
  /** Solvers with inventory, liquidity descending, ties by solver id. */
  solvers: SolverLiquidity[];
}

/**
 * Liquidity per DESIGN.md §4. Without a selection: total = capacity of the internal pool (every discount-leg
 * adapter ∪ every enabled internal solver's direct-leg adapters, each once) + each enabled external solver's
 * liquidity. With a selection: total = capacity of the selected enabled internal solvers' distinct adapters +
 * the selected enabled external solvers' liquidity.
 */
export function liquidityReport(
  solvers: readonly InventorySolver[],
  snapshot: InventorySnapshot,
  tokenOut: Address,
  discounts: readonly DiscountOffer[],
  selection?: ReadonlySet<string>,
): LiquidityReport {
  const enabled = solvers.filter((solver) => solver.enabled);
  const selected = selection ? enabled.filter((solver) => selection.has(solver.id)) : enabled;
  const legsBySolver = new Map(
    selected.map((solver) => [solver.id, offeredLegs(solver, snapshot, tokenOut, discounts)]),
  );

  const reported: SolverLiquidity[] = [];
  for (const solver of selected) {
    const liquidity = capacityOf(legsBySolver.get(solver.id) ?? []);
    if (liquidity > 0n) reported.push({ solverId: solver.id, liquidity });
  }
  reported.sort((a, b) =>
    a.liquidity === b.liquidity ? (a.solverId < b.solverId ? -1 : 1) : a.liquidity > b.liquidity ? -1 : 1,
  );

  const internalLegs = selected
    .filter((solver) => solver.internal)
    .flatMap((solver) => legsBySolver.get(solver.id) ?? []);
  // Unfiltered, discount inventory counts even when no enabled internal solver could take it.
  const poolLegs = selection
    ? internalLegs
    : [...internalLegs, ...discountLegs(snapshot, tokenOut, discounts)];
  let total = capacityOf(poolLegs);
  for (const solver of selected) {
    if (!solver.internal) total += capacityOf(legsBySolver.get(solver.id) ?? []);
  }
  return { totalLiquidity: total, solvers: reported };
}

// The orders dataset's plan: how many orders, which are open, which swapper has exactly 50, and the addresses
// the rows and the benchmark's deployment share. Pure and deterministic; orders-dataset.ts writes it.
import { createHash } from "node:crypto";
import { type Address, keccak256, toHex } from "viem";

/**
 * The suite's own database: sluice_bench_orders on PostgreSQL, .data-bench/orders/ for PGlite; served by a build
 * with other migrations (BENCH_SLUICE_ROOT), `orders_<their hash>` (store.ts `ordersDatabase`).
 */
export const ORDERS_DATABASE = "orders";

export interface OrdersPlan {
  orders: number;
  solvers: number;
  /** Open orders per solver, among the newest orders. */
  openPerSolver: number;
  /** Orders of the fixture swapper, spread evenly over the whole history. */
  fixtureSwapperOrders: number;
  /** Other swappers: orders are dealt over this many addresses. */
  swapperPool: number;
  /** Days between the oldest and the newest order. */
  historyDays: number;
}

export const FULL_ORDERS_PLAN: OrdersPlan = {
  orders: 1_000_000,
  solvers: 6,
  openPerSolver: 10,
  fixtureSwapperOrders: 50,
  swapperPool: 100_000,
  historyDays: 180,
};

/**
 * The same fixtures over fewer orders (PGlite): 60 open orders and the 50-order swapper stay; the pool of
 * other swappers shrinks with the orders so each still has about ten.
 */
export function scaledOrdersPlan(plan: OrdersPlan, scale: number): OrdersPlan {
  if (scale === 1) return plan;
  return {
    ...plan,
    orders: Math.round(plan.orders * scale),
    swapperPool: Math.max(1000, Math.round(plan.swapperPool * scale)),
  };
}

/**
 * Status shares of the orders that are not open, in per mille (settled history: mostly filled). The open ones
 * are placed explicitly (`openPerSolver` × `solvers`).
 */
export const STATUS_PER_MILLE = [
  { status: "filled", perMille: 920 },
  { status: "expired", perMille: 60 },
  { status: "cancelled", perMille: 10 },
  { status: "error", perMille: 5 },
  { status: "insufficient-funds", perMille: 5 },
] as const;

/** An address that looks like one, derived from a label: the same on every run. */
export function labelledAddress(label: string): Address {
  return `0x${keccak256(toHex(`sluice-bench:${label}`)).slice(-40)}` as Address;
}

export const ORDERS_ADDRESSES = {
  reactor: labelledAddress("orders:reactor"),
  adapterFactory: labelledAddress("orders:adapter-factory"),
  tokenIn: labelledAddress("orders:tRWA"),
  tokenOut: labelledAddress("orders:tUSD"),
  feeRecipient: labelledAddress("orders:fee-recipient"),
  fixtureSwapper: labelledAddress("orders:swapper-with-50"),
} as const;

export function solverIdOf(index: number): string {
  return `bench_solver${index + 1}`;
}

export function executorOf(index: number): Address {
  return labelledAddress(`orders:executor-${index + 1}`);
}

/** Changes whenever the plan, the row shapes (this file's generator version) or the schema change. */
export function ordersFingerprint(plan: OrdersPlan, schema: string): string {
  return createHash("sha256")
    .update(JSON.stringify({ plan, rows: ORDERS_ROW_VERSION, schema }))
    .digest("hex")
    .slice(0, 16);
}

/** Bump when the generated rows change shape, so stored datasets are regenerated. */
export const ORDERS_ROW_VERSION = 1;

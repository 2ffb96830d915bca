// The worked example of DESIGN.md §4, number for number, on the pure inventory model.
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { AdapterState, InventorySnapshot } from "../../src/inventory/adapter-state.ts";
import {
  type DiscountOffer,
  discountedRate,
  type InventorySolver,
  liquidityReport,
  offeredLegs,
} from "../../src/inventory/offer.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const T = addr(0x7);
const U = addr(0x11);
const OWNER = addr(0x99);
const MM = addr(0x98);
const fillerOf = { I1: addr(0x101), I2: addr(0x102), E1: addr(0x103) };

function adapter(
  n: number,
  capacity: bigint,
  fillers: Address[],
  overrides: Partial<AdapterState> = {},
): AdapterState {
  return {
    adapter: addr(0xa0 + n),
    asset: U,
    assetDecimals: 6,
    acceptsTokenIn: true,
    paused: false,
    maxAssets: capacity,
    maxRate: 990_000_000_000_000_000n,
    oracleAmountOutPerUnit: 1_000_000n,
    minDiscountPpm: 1000n,
    owner: OWNER,
    marketMaker: MM,
    fillers: new Set(fillers),
    ...overrides,
  };
}

const A1 = adapter(1, 100n, [fillerOf.I1, fillerOf.I2, fillerOf.E1]);
const A2 = adapter(2, 50n, [fillerOf.I2]);
const A3 = adapter(3, 30n, [fillerOf.E1]);
const A4 = adapter(4, 20n, []);
const snapshot: InventorySnapshot = {
  blockNumber: 1n,
  blockTimestamp: 1_700_000_000n,
  tokenIn: T,
  tokenInDecimals: 18,
  adapters: [A1, A2, A3, A4],
};
const discounts: DiscountOffer[] = [
  { discountId: `0x${"d".repeat(64)}` as Hex, adapter: A4.adapter, discountPpm: 5000n },
];

const solvers: InventorySolver[] = [
  { id: "int_i1", filler: fillerOf.I1, internal: true, enabled: true },
  { id: "int_i2", filler: fillerOf.I2, internal: true, enabled: true },
  { id: "ext_e1", filler: fillerOf.E1, internal: false, enabled: true },
];

const report = (list: InventorySolver[], selection?: string[]) => {
  const result = liquidityReport(list, snapshot, U, discounts, selection ? new Set(selection) : undefined);
  return { total: result.totalLiquidity, solvers: result.solvers.map((s) => [s.solverId, s.liquidity]) };
};

describe("inventory model: the worked example of DESIGN.md §4", () => {
  it("offers I1 {A1, A4}, I2 {A1, A2, A4}, E1 {A1, A3}", () => {
    const adaptersOf = (solver: InventorySolver) =>
      offeredLegs(solver, snapshot, U, discounts).map((leg) => leg.adapter);
    expect(adaptersOf(solvers[0]!)).toEqual([A1.adapter, A4.adapter]);
    expect(adaptersOf(solvers[1]!)).toEqual([A1.adapter, A2.adapter, A4.adapter]);
    expect(adaptersOf(solvers[2]!)).toEqual([A1.adapter, A3.adapter]);
  });

  it("unfiltered: solvers 170/130/120 and total 300", () => {
    expect(report(solvers)).toEqual({
      total: 300n,
      solvers: [
        ["int_i2", 170n],
        ["ext_e1", 130n],
        ["int_i1", 120n],
      ],
    });
  });

  it("with I1 and I2 disabled: the pool is the discount leg only, total 150", () => {
    const disabled = solvers.map((s) => (s.internal ? { ...s, enabled: false } : s));
    expect(report(disabled)).toEqual({ total: 150n, solvers: [["ext_e1", 130n]] });
  });

  it("solverId I1: 120", () => {
    expect(report(solvers, ["int_i1"])).toEqual({ total: 120n, solvers: [["int_i1", 120n]] });
  });

  it("solverIds [I2, E1]: 170 + 130", () => {
    expect(report(solvers, ["int_i2", "ext_e1"])).toEqual({
      total: 300n,
      solvers: [
        ["int_i2", 170n],
        ["ext_e1", 130n],
      ],
    });
  });

  it("an empty, unknown or disabled selection matches nothing", () => {
    expect(report(solvers, [])).toEqual({ total: 0n, solvers: [] });
    expect(report(solvers, ["ext_unknown"])).toEqual({ total: 0n, solvers: [] });
    const disabled = solvers.map((s) => ({ ...s, enabled: s.id !== "ext_e1" }));
    expect(report(disabled, ["ext_e1"])).toEqual({ total: 0n, solvers: [] });
  });

  it("breaks liquidity ties by solver id", () => {
    const twins: InventorySolver[] = [
      { id: "ext_b", filler: fillerOf.E1, internal: false, enabled: true },
      { id: "ext_a", filler: fillerOf.E1, internal: false, enabled: true },
    ];
    expect(report(twins).solvers).toEqual([
      ["ext_a", 130n],
      ["ext_b", 130n],
    ]);
  });

  it("skips paused, empty, foreign-asset and non-accepting adapters", () => {
    const unusable: InventorySnapshot = {
      ...snapshot,
      adapters: [
        { ...A1, paused: true },
        { ...A2, maxAssets: 0n },
        { ...A3, asset: addr(0x12) },
        { ...A4, acceptsTokenIn: false },
      ],
    };
    const result = liquidityReport(solvers, unusable, U, discounts);
    expect(result).toEqual({ totalLiquidity: 0n, solvers: [] });
  });

  it("prices a discount leg at the oracle rate less the discount, 1e18-scaled", () => {
    // 1 input token → 1.000000 U gross; 0.5% off → 0.995000 U → rate 0.995e18.
    expect(discountedRate(A4, 5000n)).toBe(995_000_000_000_000_000n);
    const leg = offeredLegs(solvers[0]!, snapshot, U, discounts).find((l) => l.discountId);
    expect(leg).toMatchObject({ adapter: A4.adapter, maxRate: 995_000_000_000_000_000n, maxAssets: 20n });
  });
});

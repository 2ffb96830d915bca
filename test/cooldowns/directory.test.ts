// Where a cooldown applies: the directory's auction view counts a solver in cooldown as disabled (so /quote, hard
// rounds, /liquidity and the internal pool leave it out), while its configured `enabled` — what GET /orders, the
// order stream and the internal discount API read — stays as it is. The worked example of DESIGN.md §4 with I2 in
// cooldown: the pool loses A2, which only I2 could take.
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { AdapterState, InventorySnapshot } from "../../src/inventory/adapter-state.ts";
import { liquidityReport } from "../../src/inventory/offer.ts";
import { type Solver, SolverDirectory } from "../../src/solvers/directory.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const U = addr(0x11);
const filler = { I1: addr(0x101), I2: addr(0x102), E1: addr(0x103) };

const adapter = (n: number, capacity: bigint, fillers: Address[]): AdapterState => ({
  adapter: addr(0xa0 + n),
  asset: U,
  assetDecimals: 6,
  acceptsTokenIn: true,
  paused: false,
  maxAssets: capacity,
  maxRate: 990_000_000_000_000_000n,
  oracleAmountOutPerUnit: 1_000_000n,
  minDiscountPpm: 1000n,
  owner: addr(0x99),
  marketMaker: addr(0x98),
  fillers: new Set(fillers),
});
const A4 = adapter(4, 20n, []);
const snapshot: InventorySnapshot = {
  blockNumber: 1n,
  blockTimestamp: 1_700_000_000n,
  tokenIn: addr(0x7),
  tokenInDecimals: 18,
  adapters: [
    adapter(1, 100n, [filler.I1, filler.I2, filler.E1]),
    adapter(2, 50n, [filler.I2]),
    adapter(3, 30n, [filler.E1]),
    A4,
  ],
};
const discounts = [{ discountId: `0x${"d".repeat(64)}` as Hex, adapter: A4.adapter, discountPpm: 5000n }];

const solver = (id: string, filler: Address, internal: boolean): Solver => ({
  id,
  name: id,
  endpoint: "http://127.0.0.1:9",
  filler,
  internal,
  enabled: true,
});
const configured = [
  solver("int_i1", filler.I1, true),
  solver("int_i2", filler.I2, true),
  solver("ext_e1", filler.E1, false),
];

describe("a solver in cooldown", () => {
  const cooling = new Set<string>();
  const directory = new SolverDirectory(configured, [], undefined, {
    isLeftOut: (id) => cooling.has(id),
  });

  it("counts as disabled for auctions and /liquidity, the internal pool included", () => {
    const report = () => liquidityReport(directory.forAuctions(), snapshot, U, discounts);
    expect(report().totalLiquidity).toBe(300n);
    cooling.add("int_i2");
    expect(directory.select().map((s) => s.id)).toEqual(["int_i1", "ext_e1"]);
    expect(directory.select(["int_i2", "ext_e1"]).map((s) => s.id)).toEqual(["ext_e1"]);
    // P = {A1, A4} (I1's) = 120, plus E1's 130.
    expect(report()).toEqual({
      totalLiquidity: 250n,
      solvers: [
        { solverId: "ext_e1", liquidity: 130n },
        { solverId: "int_i1", liquidity: 120n },
      ],
    });
  });

  it("stays enabled for what it won: its orders, its stream, the internal discount API", () => {
    cooling.add("int_i2");
    expect(directory.enabled().map((s) => s.id)).toEqual(["int_i1", "int_i2", "ext_e1"]);
    expect(directory.enabledById("int_i2")?.enabled).toBe(true);
    expect(directory.byId("int_i2")?.enabled).toBe(true);
  });
});

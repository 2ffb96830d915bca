// The hand-worked scenario of issue 22: two networks, two operators, two vaults of different decimals, three
// stakers; a withdrawal and a deposit, then a price change, in the middle. Every receiver's points at three blocks,
// worked out by hand below (in points; the ledger counts 1e-48 points, so 1.125 points is 1125 followed by 45 zeros).
//
// Scope
//   N1: rate 0.0025 points per USD-hour, operator fee 3 %, network share 0
//   N2: rate 0.01 points per USD-hour, operator fee 10 %, network share 5 %
//   VA: 6-decimal collateral at $1 (8-decimal feed), NetworkRestake, curator C with a 10 % curator fee
//       N1 limit 60,000, operator shares O1:O2 = 1:3; N2 limit 1,000,000, only O1 (1 share)
//   VB: 18-decimal collateral at $2,000, OperatorSpecific for O2, N1 limit 10 tokens, no N2 limit (so 0)
//
// Block 101 (T+12 s): opt-ins; Alice 40,000 and Bob 20,000 into VA; Bob 15 and Carol 5 tokens into VB.
//   VA: N1 base min(60,000, 60,000) = 60,000 → O1 $15,000, O2 $45,000; N2 base 60,000 → O1 $60,000
//   VB: N1 base min(20, 10) = 10 tokens → O2 $20,000
// Block 102 (T+12 s+1 h) accrues 1 hour with that state:
//   N1 in VA: 0.0025 × 60,000 × 1 = 150 → operators 3 % = 4.5 (O1 ¼ 1.125, O2 ¾ 3.375), VA keeps 145.5
//   N2 in VA: 0.01 × 60,000 × 1 = 600 → O1 10 % = 60, N2 5 % = 30, VA keeps 510
//   VA emits 750; its part 655.5 → curator 10 % = 65.55, stakers 589.95 (Alice ⅔ 393.3, Bob ⅓ 196.65)
//   N1 in VB: 0.0025 × 20,000 = 50 → O2 1.5, VB keeps 48.5 → Carol ¼ 12.125, Bob ¾ 36.375
//   then applies: Alice withdraws 10,000 from VA (VA 50,000: Alice 3/5, Bob 2/5), Carol deposits 5 more into VB
//   (VB 25 tokens, still capped at 10: Carol 10/25, Bob 15/25).
// Block 103 (+30 min) accrues ½ hour:
//   N1 in VA: 0.0025 × 50,000 × ½ = 62.5 → operators 1.875 (O1 0.46875, O2 1.40625), VA keeps 60.625
//   N2 in VA: 0.01 × 50,000 × ½ = 250 → O1 25, N2 12.5, VA keeps 212.5
//   VA emits 312.5; part 273.125 → curator 27.3125, stakers 245.8125 (Alice 147.4875, Bob 98.325)
//   N1 in VB: 0.0025 × 20,000 × ½ = 25 → O2 0.75, VB keeps 24.25 → Carol 9.7, Bob 14.55
//   then applies: VB's collateral price $2,000 → $2,500 (VB's 10 counted tokens are $25,000).
// Block 104 (+40 min = ⅔ hour) accrues:
//   N1 in VA: 0.0025 × 50,000 × ⅔ = 250/3 → operators 2.5 (O1 0.625, O2 1.875), VA keeps 242.5/3
//   N2 in VA: 0.01 × 50,000 × ⅔ = 1000/3 → O1 100/3, N2 50/3, VA keeps 850/3
//   VA emits 1250/3; part 1092.5/3 → curator 109.25/3, stakers 983.25/3 = 327.75 (Alice 196.65, Bob 131.1)
//   N1 in VB: 0.0025 × 25,000 × ⅔ = 125/3 → O2 1.25, VB keeps 121.25/3 → Carol 48.5/3, Bob 72.75/3 = 24.25
//
// Floors (1e-48 points): a receiver gets the floor of its exact cumulative amount. The stakers share their vault's
// pool, itself the floor of its exact amount, by active shares; a staker's part of the pool's growth since its
// last balance change is floored too. At block 104 VB's pool is floor(48.5 + 24.25 + 121.25/3) = 113.1666…6;
// since Carol's deposit (pool 48.5) it grew by 64.666…6 (48 decimals), of which Carol gets ⅖ = 25.8666…6.4 and
// Bob ⅗ = 38.7999…9.6, floored: Carol 12.125 + 25.8666…6 = 37.991666…6, Bob 36.375 + 38.7999…9 = 75.174999…9.
// Each vault's own address (as staker) takes what the floors leave: VA 1479.1666…6 − Σ = 1 unit, VB 1 unit.
import { describe, expect, it } from "vitest";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import type { Address, LedgerScope, ReceiverPoints, StakeEvent } from "../../src/points-engine/model.ts";
import { compareWithReplay, replayPoints } from "../../src/points-engine/replay.ts";
import { ReferenceChain } from "./support/reference-chain.ts";
import { address, subnetworkOf } from "./support/scenario.ts";

const N1 = address("10", 1);
const N2 = address("10", 2);
const O1 = address("20", 1);
const O2 = address("20", 2);
const VA = address("30", 1);
const VB = address("30", 2);
const USDC = address("40", 1);
const WETH = address("40", 2);
const CURATOR = address("50", 1);
const ALICE = address("60", 1);
const BOB = address("60", 2);
const CAROL = address("60", 3);
const S1 = subnetworkOf(N1, 0);
const S2 = subnetworkOf(N2, 0);
const NAMES = new Map<Address, string>([
  [N1, "N1"],
  [N2, "N2"],
  [O1, "O1"],
  [O2, "O2"],
  [VA, "VA"],
  [VB, "VB"],
  [CURATOR, "C"],
  [ALICE, "Alice"],
  [BOB, "Bob"],
  [CAROL, "Carol"],
]);

const scope: LedgerScope = {
  networks: [
    {
      address: N1,
      subnetworks: [S1],
      ratePerUsdHour: 25n * 10n ** 44n,
      operatorFeeBps: 300,
      networkShareBps: 0,
    },
    {
      address: N2,
      subnetworks: [S2],
      ratePerUsdHour: 10n ** 46n,
      operatorFeeBps: 1_000,
      networkShareBps: 500,
    },
  ],
  vaults: [
    {
      address: VA,
      collateral: USDC,
      collateralDecimals: 6,
      delegatorType: "networkRestake",
      curator: CURATOR,
      curatorFeeBps: 1_000,
    },
    {
      address: VB,
      collateral: WETH,
      collateralDecimals: 18,
      delegatorType: "operatorSpecific",
      operator: O2,
      curatorFeeBps: 0,
    },
  ],
  priceFeeds: [
    { collateral: USDC, feed: address("70", 1), decimals: 8, initialAnswer: 100_000_000n },
    { collateral: WETH, feed: address("70", 2), decimals: 8, initialAnswer: 2_000n * 10n ** 8n },
  ],
};

const usdc = (amount: bigint) => amount * 10n ** 6n;
const weth = (amount: bigint) => amount * 10n ** 18n;
const T = 1_700_000_000n;

const setup: StakeEvent[] = [
  { kind: "optIn", service: "network", operator: O1, target: N1 },
  { kind: "optIn", service: "network", operator: O1, target: N2 },
  { kind: "optIn", service: "network", operator: O2, target: N1 },
  { kind: "optIn", service: "network", operator: O2, target: N2 },
  { kind: "optIn", service: "vault", operator: O1, target: VA },
  { kind: "optIn", service: "vault", operator: O2, target: VA },
  { kind: "optIn", service: "vault", operator: O2, target: VB },
  { kind: "maxNetworkLimit", vault: VA, subnetwork: S1, amount: usdc(100_000n) },
  { kind: "networkLimit", vault: VA, subnetwork: S1, amount: usdc(60_000n) },
  { kind: "maxNetworkLimit", vault: VA, subnetwork: S2, amount: usdc(1_000_000n) },
  { kind: "networkLimit", vault: VA, subnetwork: S2, amount: usdc(1_000_000n) },
  { kind: "operatorNetworkShares", vault: VA, subnetwork: S1, operator: O1, shares: 1n },
  { kind: "operatorNetworkShares", vault: VA, subnetwork: S1, operator: O2, shares: 3n },
  { kind: "operatorNetworkShares", vault: VA, subnetwork: S2, operator: O1, shares: 1n },
  { kind: "maxNetworkLimit", vault: VB, subnetwork: S1, amount: weth(10n) },
  { kind: "networkLimit", vault: VB, subnetwork: S1, amount: weth(10n) },
  { kind: "deposit", vault: VA, staker: ALICE, amount: usdc(40_000n), shares: usdc(40_000n) },
  { kind: "deposit", vault: VA, staker: BOB, amount: usdc(20_000n), shares: usdc(20_000n) },
  { kind: "deposit", vault: VB, staker: BOB, amount: weth(15n), shares: weth(15n) },
  { kind: "deposit", vault: VB, staker: CAROL, amount: weth(5n), shares: weth(5n) },
];

const blocks = [
  { number: 101n, timestamp: T + 12n, events: setup },
  {
    number: 102n,
    timestamp: T + 12n + 3_600n,
    events: [
      { kind: "withdraw", vault: VA, staker: ALICE, amount: usdc(10_000n), burnedShares: usdc(10_000n) },
      { kind: "deposit", vault: VB, staker: CAROL, amount: weth(5n), shares: weth(5n) },
    ] satisfies StakeEvent[],
  },
  {
    number: 103n,
    timestamp: T + 12n + 3_600n + 1_800n,
    events: [{ kind: "price", collateral: WETH, answer: 2_500n * 10n ** 8n }] satisfies StakeEvent[],
  },
  { number: 104n, timestamp: T + 12n + 3_600n + 1_800n + 2_400n, events: [] },
];

/** Points written as a decimal number of points, exactly, in 1e-48 units. */
function points(decimal: string): bigint {
  return repeating(decimal, "0");
}

/** A decimal whose last digit repeats, floored to 48 decimals: repeating("59.1", "6") is 59.1666…6. */
function repeating(decimal: string, digit: string): bigint {
  const [whole, fraction = ""] = decimal.split(".");
  return BigInt(whole! + fraction.padEnd(48, digit));
}

function named(entries: ReceiverPoints[]): Record<string, bigint> {
  return Object.fromEntries(
    entries.map((entry) => [`${entry.type}:${NAMES.get(entry.receiver)}`, entry.points]),
  );
}

describe("the hand-worked scenario", () => {
  const ledger = PointsLedger.create(scope, { block: 100n, timestamp: T });
  ledger.step(blocks[0]!);

  it("at block 102 (one hour): every receiver's points, exactly", () => {
    ledger.step(blocks[1]!);
    expect(named(ledger.receivers(VA))).toEqual({
      "operator:O1": points("61.125"), // 1.125 (N1) + 60 (N2)
      "operator:O2": points("3.375"),
      "network:N2": points("30"),
      "curator:C": points("65.55"),
      "staker:Alice": points("393.3"),
      "staker:Bob": points("196.65"),
    });
    expect(named(ledger.receivers(VB))).toEqual({
      "operator:O2": points("1.5"),
      "staker:Carol": points("12.125"),
      "staker:Bob": points("36.375"),
    });
    expect(ledger.snapshot().emitted).toBe(points("800")); // 750 + 50
  });

  it("at block 103 (after the withdrawal and the deposit): every receiver's points, exactly", () => {
    ledger.step(blocks[2]!);
    expect(named(ledger.receivers(VA))).toEqual({
      "operator:O1": points("86.59375"), // 61.125 + 0.46875 + 25
      "operator:O2": points("4.78125"), // 3.375 + 1.40625
      "network:N2": points("42.5"), // 30 + 12.5
      "curator:C": points("92.8625"), // 65.55 + 27.3125
      "staker:Alice": points("540.7875"), // 393.3 + 147.4875
      "staker:Bob": points("294.975"), // 196.65 + 98.325
    });
    expect(named(ledger.receivers(VB))).toEqual({
      "operator:O2": points("2.25"), // 1.5 + 0.75
      "staker:Carol": points("21.825"), // 12.125 + 9.7
      "staker:Bob": points("50.925"), // 36.375 + 14.55
    });
    expect(ledger.snapshot().emitted).toBe(points("1137.5")); // 1062.5 + 75
  });

  it("at block 104 (after the price change): floors, and the rounding unit with the vault's own address", () => {
    ledger.step(blocks[3]!);
    expect(named(ledger.receivers(VA))).toEqual({
      "operator:O1": repeating("120.552083", "3"), // 86.59375 + 0.625 + 100/3
      "operator:O2": points("6.65625"), // 4.78125 + 1.875
      "network:N2": repeating("59.1", "6"), // 42.5 + 50/3
      "curator:C": repeating("129.2791", "6"), // 92.8625 + 109.25/3
      "staker:Alice": points("737.4375"), // 540.7875 + 196.65
      "staker:Bob": points("426.075"), // 294.975 + 131.1
      "staker:VA": 1n, // the rounding unit
    });
    expect(named(ledger.receivers(VB))).toEqual({
      "operator:O2": points("3.5"), // 2.25 + 1.25
      "staker:Carol": repeating("37.991", "6"), // 21.825 + 48.5/3, see "Floors" above
      "staker:Bob": repeating("75.174", "9"), // 50.925 + 24.25 = 75.175 exactly, one unit less: see "Floors"
      "staker:VB": 1n, // the rounding unit
    });
    const snapshot = ledger.snapshot();
    const va = snapshot.vaults.find((vault) => vault.vault === VA)!;
    expect(va.emitted).toBe(repeating("1479.1", "6")); // 1062.5 + 1250/3
    expect(va.byType).toEqual({
      staker: points("737.4375") + points("426.075") + 1n,
      operator: repeating("120.552083", "3") + points("6.65625"),
      curator: repeating("129.2791", "6"),
      network: repeating("59.1", "6"),
    });
    const vb = snapshot.vaults.find((vault) => vault.vault === VB)!;
    expect(vb.emitted).toBe(repeating("116.", "6")); // 75 + 125/3
    expect(snapshot.emitted).toBe(va.emitted + vb.emitted);
    expect(snapshot.total).toBe(snapshot.emitted);
    expect(
      ledger.receiverPoints(BOB).map((entry) => [NAMES.get(entry.vault), entry.type, entry.points]),
    ).toEqual([
      ["VA", "staker", points("426.075")],
      ["VB", "staker", repeating("75.174", "9")],
    ]);
  });

  it("is what the per-block replay of the same chain gives", async () => {
    const chain = new ReferenceChain(scope);
    const states = new Map([[100n, chain.state(100n, T)]]);
    for (const block of blocks) {
      for (const event of block.events) chain.apply(event);
      states.set(block.number, chain.state(block.number, block.timestamp));
    }
    const replay = await replayPoints({
      scope,
      fromBlock: 100n,
      toBlock: 104n,
      readState: async (b) => states.get(b)!,
    });
    const comparison = compareWithReplay(
      { snapshot: ledger.snapshot(), receivers: [...ledger.receivers(VA), ...ledger.receivers(VB)] },
      replay,
    );
    expect(comparison.ok).toBe(true);
    expect(comparison.totals).toEqual([]);
  });
});

// The ledger's stake rules one at a time: opt-outs give stake 0, core's limit and maximum-limit clamps, the
// accrual start, FullRestake vaults out of scope, and the events and steps it refuses.
import { describe, expect, it } from "vitest";
import {
  LedgerEventError,
  LedgerRecordError,
  LedgerScopeError,
  LedgerStepError,
} from "../../src/points-engine/ledger/errors.ts";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import type { DelegatorType, LedgerScope, StakeEvent } from "../../src/points-engine/model.ts";
import { address, subnetworkOf } from "./support/scenario.ts";

const NETWORK = address("10", 1);
const SUBNETWORK = subnetworkOf(NETWORK, 0);
const O1 = address("20", 1);
const O2 = address("20", 2);
const VAULT = address("30", 1);
const TOKEN = address("40", 1);
const ALICE = address("60", 1);
const HOUR = 3_600n;
const E48 = 10n ** 48n;

/** One network at 1 point per USD-hour with no fees, one vault of a $1 token with 0 decimals. */
function scope(delegatorType: DelegatorType = "networkRestake"): LedgerScope {
  return {
    networks: [
      {
        address: NETWORK,
        subnetworks: [SUBNETWORK],
        ratePerUsdHour: E48,
        operatorFeeBps: 0,
        networkShareBps: 0,
      },
    ],
    vaults: [
      {
        address: VAULT,
        collateral: TOKEN,
        collateralDecimals: 0,
        delegatorType,
        operator: delegatorType === "operatorSpecific" ? O1 : undefined,
        curatorFeeBps: 0,
      },
    ],
    priceFeeds: [{ collateral: TOKEN, feed: address("70", 1), decimals: 0, initialAnswer: 1n }],
  };
}

const optedIn: StakeEvent[] = [
  { kind: "optIn", service: "network", operator: O1, target: NETWORK },
  { kind: "optIn", service: "vault", operator: O1, target: VAULT },
  { kind: "optIn", service: "network", operator: O2, target: NETWORK },
  { kind: "optIn", service: "vault", operator: O2, target: VAULT },
  { kind: "maxNetworkLimit", vault: VAULT, subnetwork: SUBNETWORK, amount: 1_000n },
  { kind: "networkLimit", vault: VAULT, subnetwork: SUBNETWORK, amount: 1_000n },
  { kind: "operatorNetworkShares", vault: VAULT, subnetwork: SUBNETWORK, operator: O1, shares: 1n },
  { kind: "operatorNetworkShares", vault: VAULT, subnetwork: SUBNETWORK, operator: O2, shares: 1n },
  { kind: "deposit", vault: VAULT, staker: ALICE, amount: 100n, shares: 100n },
];

/** Steps a fresh ledger through hours of events and gives the emission of each hour. */
function hourly(hours: StakeEvent[][], ledgerScope = scope()): bigint[] {
  const ledger = PointsLedger.create(ledgerScope, { block: 0n, timestamp: 0n });
  ledger.step({ number: 1n, timestamp: 0n, events: optedIn });
  const emitted: bigint[] = [];
  let before = 0n;
  for (const [i, events] of hours.entries()) {
    ledger.step({ number: BigInt(i + 2), timestamp: BigInt(i + 1) * HOUR, events });
    const now = ledger.snapshot().emitted;
    emitted.push((now - before) / E48);
    before = now;
  }
  return emitted;
}

describe("PointsLedger stake rules", () => {
  it("counts an operator's stake only while it is opted in to the network and to the vault", () => {
    // 100 tokens at $1 split 1:1 between O1 and O2: 100 points an hour, 50 of them through each operator.
    expect(
      hourly([
        [{ kind: "optOut", service: "network", operator: O1, target: NETWORK }],
        [{ kind: "optIn", service: "network", operator: O1, target: NETWORK }],
        [{ kind: "optOut", service: "vault", operator: O2, target: VAULT }],
        [{ kind: "optOut", service: "vault", operator: O1, target: VAULT }],
        [],
      ]),
      // O1 out of the network: its half counts 0 (O2 keeps its half, not the whole); back in; O2 out of the vault;
      // then nobody.
    ).toEqual([100n, 50n, 100n, 50n, 0n]);
  });

  it("follows core's network limit and lowers the limit with a lower maximum", () => {
    expect(
      hourly([
        [{ kind: "networkLimit", vault: VAULT, subnetwork: SUBNETWORK, amount: 60n }],
        [{ kind: "maxNetworkLimit", vault: VAULT, subnetwork: SUBNETWORK, amount: 30n }],
        [{ kind: "maxNetworkLimit", vault: VAULT, subnetwork: SUBNETWORK, amount: 500n }],
        [{ kind: "deposit", vault: VAULT, staker: ALICE, amount: 900n, shares: 900n }],
        [],
      ]),
      // min(100, 1000); then limit 60; the maximum 30 clamps the limit to 30; raising the maximum leaves it at 30.
    ).toEqual([100n, 60n, 30n, 30n, 30n]);
  });

  it("counts an operator-specific vault's stake for its operator only", () => {
    const specific = scope("operatorSpecific");
    expect(
      hourly(
        [
          [],
          [{ kind: "optOut", service: "vault", operator: O2, target: VAULT }],
          [{ kind: "optOut", service: "network", operator: O1, target: NETWORK }],
          [],
        ],
        specific,
      ),
    ).toEqual([100n, 100n, 100n, 0n]);
  });

  it("slashes active stake without touching shares", () => {
    expect(hourly([[{ kind: "slash", vault: VAULT, slashedAmount: 40n }], []])).toEqual([100n, 60n]);
  });

  it("applies events before its accrual start without counting points for them", () => {
    const ledger = PointsLedger.create(scope(), { block: 0n, timestamp: 0n, accrualStartBlock: 5n });
    ledger.step({ number: 1n, timestamp: 0n, events: optedIn });
    ledger.step({ number: 3n, timestamp: HOUR, events: [] });
    expect(() => ledger.step({ number: 7n, timestamp: 3n * HOUR, events: [] })).toThrow(LedgerStepError);
    ledger.step({ number: 5n, timestamp: 2n * HOUR, events: [] });
    expect(ledger.snapshot().emitted).toBe(0n);
    ledger.step({ number: 6n, timestamp: 3n * HOUR, events: [] });
    expect(ledger.snapshot().emitted).toBe(100n * E48);
    const restored = PointsLedger.restore(scope(), ledger.records());
    restored.step({ number: 7n, timestamp: 4n * HOUR, events: [] });
    expect(restored.snapshot().emitted).toBe(200n * E48);
  });

  it("keeps FullRestake vaults out of its scope", () => {
    const fullRestake = {
      ...scope(),
      vaults: [{ ...scope().vaults[0]!, delegatorType: "fullRestake" as DelegatorType }],
    };
    expect(() => PointsLedger.create(fullRestake, { block: 0n, timestamp: 0n })).toThrow(LedgerScopeError);
    expect(() => PointsLedger.create(fullRestake, { block: 0n, timestamp: 0n })).toThrow(
      /fullRestake delegator/,
    );
  });

  it("refuses steps that do not go forward and events its state cannot have produced", () => {
    const ledger = PointsLedger.create(scope(), { block: 10n, timestamp: 100n });
    expect(() => ledger.step({ number: 10n, timestamp: 200n, events: [] })).toThrow(LedgerStepError);
    expect(() => ledger.step({ number: 11n, timestamp: 99n, events: [] })).toThrow(LedgerStepError);
    ledger.step({ number: 11n, timestamp: 100n, events: optedIn });
    const burn: StakeEvent = {
      kind: "withdraw",
      vault: VAULT,
      staker: ALICE,
      amount: 1n,
      burnedShares: 101n,
    };
    expect(() => ledger.step({ number: 12n, timestamp: 112n, events: [burn] })).toThrow(LedgerEventError);
  });

  it("refuses records it cannot restore under the scope", () => {
    const ledger = PointsLedger.create(scope(), { block: 0n, timestamp: 0n });
    ledger.step({ number: 1n, timestamp: 0n, events: optedIn });
    const records = ledger.records();
    expect(() =>
      PointsLedger.restore(
        scope(),
        records.filter((r) => r.kind !== "position"),
      ),
    ).toThrow(LedgerRecordError);
    const otherScope = { ...scope(), vaults: [{ ...scope().vaults[0]!, address: address("30", 9) }] };
    expect(() => PointsLedger.restore(otherScope, records)).toThrow(/not in scope/);
    const broken = records.map((r) =>
      r.kind === "vault" ? { ...r, value: { ...r.value, activeStake: "x" } } : r,
    );
    expect(() => PointsLedger.restore(scope(), broken)).toThrow(/no integer activeStake/);
  });
});

// Properties of the points ledger over seeded random stake histories (test/points-engine/support/scenario.ts):
// exact sums, monotone staker points, proportional accrual, path independence, the restore round trip, and
// agreement with the replay verifier (a different path over the reference chain's per-block state).
import { describe, expect, it } from "vitest";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import type { Address, LedgerRecord, ReceiverPoints } from "../../src/points-engine/model.ts";
import { compareWithReplay, replayPoints } from "../../src/points-engine/replay.ts";
import { randomScenario, type Scenario } from "./support/scenario.ts";

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

function startLedger(scenario: Scenario): PointsLedger {
  return PointsLedger.create(scenario.scope, {
    block: scenario.startBlock,
    timestamp: scenario.startTimestamp,
  });
}

function allReceivers(ledger: PointsLedger, scenario: Scenario): ReceiverPoints[] {
  return scenario.scope.vaults.flatMap((vault) => ledger.receivers(vault.address));
}

function sorted(records: LedgerRecord[]): LedgerRecord[] {
  return [...records].sort((a, b) => `${a.kind}|${a.key}`.localeCompare(`${b.kind}|${b.key}`));
}

const isRounding = (entry: ReceiverPoints) => entry.type === "staker" && entry.receiver === entry.vault;

describe("PointsLedger over random histories", () => {
  it("credits every emitted unit: receivers sum to the emission per vault and overall at every block", () => {
    for (const seed of SEEDS) {
      const scenario = randomScenario(seed, { blocks: 150, eventChance: 0.4 });
      const ledger = startLedger(scenario);
      let emittedBefore = 0n;
      for (const block of scenario.blocks) {
        ledger.step(block);
        const snapshot = ledger.snapshot();
        expect(snapshot.total).toBe(snapshot.emitted);
        let sum = 0n;
        for (const vault of snapshot.vaults) {
          const receivers = ledger.receivers(vault.vault);
          const vaultSum = receivers.reduce((acc, entry) => acc + entry.points, 0n);
          expect(vaultSum, `seed ${seed} block ${block.number} vault ${vault.vault}`).toBe(vault.emitted);
          const { staker, operator, curator, network } = vault.byType;
          expect(staker + operator + curator + network).toBe(vault.emitted);
          for (const type of ["operator", "curator", "network"] as const) {
            const ofType = receivers
              .filter((entry) => entry.type === type)
              .reduce((acc, e) => acc + e.points, 0n);
            expect(ofType).toBe(vault.byType[type]);
          }
          sum += vaultSum;
        }
        expect(sum).toBe(snapshot.emitted);
        expect(snapshot.emitted).toBeGreaterThanOrEqual(emittedBefore);
        emittedBefore = snapshot.emitted;
      }
      expect(emittedBefore, `seed ${seed} emits something`).toBeGreaterThan(10n ** 48n);
    }
  });

  it("never lowers a receiver's points, except a vault's rounding receiver, which stays a few units", () => {
    for (const seed of SEEDS) {
      const scenario = randomScenario(seed, { blocks: 150, eventChance: 0.4 });
      const ledger = startLedger(scenario);
      const seen = new Map<string, bigint>();
      for (const block of scenario.blocks) {
        ledger.step(block);
        for (const entry of allReceivers(ledger, scenario)) {
          if (isRounding(entry)) {
            // Split floors (3 operators, 2 networks, curator, stakers' pool) and the 6 stakers' floors.
            expect(entry.points).toBeGreaterThanOrEqual(0n);
            expect(entry.points).toBeLessThanOrEqual(13n);
            continue;
          }
          const key = `${entry.vault}|${entry.receiver}|${entry.type}`;
          expect(entry.points, `seed ${seed} block ${block.number} ${key}`).toBeGreaterThanOrEqual(
            seen.get(key) ?? 0n,
          );
          seen.set(key, entry.points);
        }
      }
      expect(seen.size).toBeGreaterThan(8);
    }
  });

  it("accrues two stakers with constant balances in one vault in the ratio of their balances", () => {
    for (const seed of SEEDS) {
      const scenario = randomScenario(seed, { blocks: 200, eventChance: 0.5, constantPair: true });
      const ledger = startLedger(scenario);
      const vault = scenario.scope.vaults[2]!.address;
      const [a, b] = [scenario.stakers[4]!, scenario.stakers[5]!];
      const sharesOf = (staker: Address) =>
        scenario.states
          .get(scenario.startBlock + 1n)!
          .vaults.find((v) => v.vault === vault)!
          .stakers.find((s) => s.staker === staker)!.shares;
      const [sharesA, sharesB] = [sharesOf(a), sharesOf(b)];
      for (const block of scenario.blocks) {
        ledger.step(block);
        const pointsA = ledger.receiverPoints(a).find((e) => e.vault === vault)?.points ?? 0n;
        const pointsB = ledger.receiverPoints(b).find((e) => e.vault === vault)?.points ?? 0n;
        // Both are floors of sharesX × I for one exact index I: pointsA·sharesB − pointsB·sharesA ∈ (−sharesB, sharesA).
        const cross = pointsA * sharesB - pointsB * sharesA;
        expect(cross, `seed ${seed} block ${block.number}`).toBeGreaterThan(-sharesB);
        expect(cross).toBeLessThan(sharesA);
      }
      expect(ledger.receiverPoints(a).find((e) => e.vault === vault)?.points ?? 0n).toBeGreaterThan(
        10n ** 40n,
      );
    }
  });

  it("gives the same state whether stepped at every block or only where there are events", () => {
    for (const seed of SEEDS) {
      const scenario = randomScenario(seed, { blocks: 200, eventChance: 0.2 });
      const everyBlock = startLedger(scenario);
      const eventsOnly = startLedger(scenario);
      const last = scenario.blocks.at(-1)!;
      for (const block of scenario.blocks) {
        everyBlock.step(block);
        if (block.events.length > 0 || block === last) eventsOnly.step(block);
      }
      expect(sorted(eventsOnly.records())).toEqual(sorted(everyBlock.records()));
      expect(allReceivers(eventsOnly, scenario)).toEqual(allReceivers(everyBlock, scenario));
      expect(eventsOnly.snapshot()).toEqual(everyBlock.snapshot());
    }
  });

  it("restores exactly: from all records or from the accumulated changes, then steps like the original", () => {
    for (const seed of SEEDS) {
      const scenario = randomScenario(seed, { blocks: 120, eventChance: 0.4 });
      const original = startLedger(scenario);
      const persisted = new Map<string, LedgerRecord>();
      const restoredCopies: PointsLedger[] = [];
      for (const [i, block] of scenario.blocks.entries()) {
        original.step(block);
        for (const copy of restoredCopies) copy.step(block);
        for (const record of original.takeChanges()) persisted.set(`${record.kind}|${record.key}`, record);
        if (i % 40 === 17) {
          const fromChanges = PointsLedger.restore(scenario.scope, [...persisted.values()]);
          const fromRecords = PointsLedger.restore(scenario.scope, original.records());
          expect(sorted(fromChanges.records())).toEqual(sorted(original.records()));
          expect(fromChanges.takeChanges()).toEqual([]);
          restoredCopies.push(fromChanges, fromRecords);
        }
      }
      expect(restoredCopies).toHaveLength(6);
      for (const copy of restoredCopies) {
        expect(sorted(copy.records())).toEqual(sorted(original.records()));
        expect(allReceivers(copy, scenario)).toEqual(allReceivers(original, scenario));
        expect(copy.snapshot()).toEqual(original.snapshot());
      }
      expect(sorted([...persisted.values()])).toEqual(sorted(original.records()));
    }
  });

  it("agrees with the per-block replay over the chain's state: totals exact, receivers within a unit per block", async () => {
    let differing = 0;
    for (const seed of SEEDS.slice(0, 5)) {
      const scenario = randomScenario(seed, { blocks: 120, eventChance: 0.4 });
      const ledger = startLedger(scenario);
      const checkpoints = new Set([40n, 90n, 120n].map((offset) => scenario.startBlock + offset));
      for (const block of scenario.blocks) {
        ledger.step(block);
        if (!checkpoints.has(block.number)) continue;
        const replay = await replayPoints({
          scope: scenario.scope,
          fromBlock: scenario.startBlock,
          toBlock: block.number,
          readState: async (at) => scenario.states.get(at)!,
        });
        const comparison = compareWithReplay(
          { snapshot: ledger.snapshot(), receivers: allReceivers(ledger, scenario) },
          replay,
        );
        expect(comparison.problems).toEqual([]);
        expect(comparison.totals).toEqual([]);
        expect(comparison.receivers.filter((entry) => !entry.withinBound)).toEqual([]);
        expect(comparison.ok).toBe(true);
        differing += comparison.receivers.length;
      }
    }
    // Per-block floors do differ from the ledger's cumulative ones: the bound is exercised, not vacuous.
    expect(differing).toBeGreaterThan(0);
  });

  it("reports a receiver beyond the bound and a total that differs", async () => {
    const scenario = randomScenario(11, { blocks: 30, eventChance: 0.5 });
    const ledger = startLedger(scenario);
    for (const block of scenario.blocks) ledger.step(block);
    const replay = await replayPoints({
      scope: scenario.scope,
      fromBlock: scenario.startBlock,
      toBlock: scenario.blocks.at(-1)!.number,
      readState: async (at) => scenario.states.get(at)!,
    });
    const receivers = allReceivers(ledger, scenario);
    const victim = receivers.find((entry) => entry.type === "staker" && !isRounding(entry))!;
    const tampered = receivers.map((entry) =>
      entry === victim ? { ...entry, points: entry.points + 31n } : entry,
    );
    const snapshot = ledger.snapshot();
    const comparison = compareWithReplay(
      { snapshot: { ...snapshot, emitted: snapshot.emitted + 31n }, receivers: tampered },
      replay,
    );
    expect(comparison.ok).toBe(false);
    expect(comparison.totals).toEqual([
      { vault: null, ledger: snapshot.emitted + 31n, replay: replay.emitted },
    ]);
    const reported = comparison.receivers.find(
      (entry) => entry.receiver === victim.receiver && entry.vault === victim.vault,
    );
    expect(reported).toMatchObject({ type: "staker", allowed: 30n, withinBound: false });
    expect(reported!.difference).toBeGreaterThan(30n);
  });

  it("ignores the events of a vault outside its scope", () => {
    const scenario = randomScenario(3, { blocks: 60, eventChance: 0.5 });
    const ledger = startLedger(scenario);
    for (const block of scenario.blocks) ledger.step(block);
    expect(
      scenario.blocks.some((block) =>
        block.events.some((e) => "vault" in e && e.vault === scenario.outsideVault),
      ),
    ).toBe(true);
    expect(ledger.snapshot().vaults.map((vault) => vault.vault)).not.toContain(scenario.outsideVault);
    expect(() => ledger.receivers(scenario.outsideVault)).toThrow(/not in the points ledger's scope/);
    expect(ledger.records().some((record) => record.key.includes(scenario.outsideVault))).toBe(false);
  });
});

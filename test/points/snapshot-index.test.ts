import { describe, expect, it } from "vitest";
import { SnapshotIndex, type SnapshotRef } from "../../src/points/snapshot-index.ts";
import { LruCache } from "../../src/shared/lru.ts";

const snapshots: SnapshotRef[] = [
  { id: 1, pointsType: "sluice", blockNumber: 300 },
  { id: 2, pointsType: "sluice", blockNumber: 100 },
  { id: 3, pointsType: "sluice", blockNumber: 200 },
  { id: 4, pointsType: "alpha", blockNumber: 150 },
  { id: 5, pointsType: "alpha", blockNumber: 250 },
  { id: 6, pointsType: "Zeta", blockNumber: 1000 },
];

const blocksOf = (refs: SnapshotRef[]) => refs.map((ref) => `${ref.pointsType}@${ref.blockNumber}`);

describe("SnapshotIndex", () => {
  const index = new SnapshotIndex(snapshots, ["0xa"]);

  it("orders types by code point and takes each type's newest snapshot as current", () => {
    expect(blocksOf(index.current())).toEqual(["Zeta@1000", "alpha@250", "sluice@300"]);
  });

  it("picks, per type, the nearest snapshot and the earlier one on a tie", () => {
    expect(blocksOf(index.nearest(150))).toEqual(["Zeta@1000", "alpha@150", "sluice@100"]);
    expect(blocksOf(index.nearest(250))).toEqual(["Zeta@1000", "alpha@250", "sluice@200"]);
    expect(blocksOf(index.nearest(201))).toEqual(["Zeta@1000", "alpha@250", "sluice@200"]);
    expect(blocksOf(index.nearest(199))).toEqual(["Zeta@1000", "alpha@150", "sluice@200"]);
    expect(blocksOf(index.nearest(1))).toEqual(["Zeta@1000", "alpha@150", "sluice@100"]);
    expect(blocksOf(index.nearest(Number.MAX_SAFE_INTEGER))).toEqual([
      "Zeta@1000",
      "alpha@250",
      "sluice@300",
    ]);
  });

  it("knows the vaults it was given and reports emptiness", () => {
    expect(index.knowsVault("0xa")).toBe(true);
    expect(index.knowsVault("0xb")).toBe(false);
    expect(index.isEmpty).toBe(false);
    expect(new SnapshotIndex([], []).isEmpty).toBe(true);
  });
});

describe("LruCache", () => {
  it("evicts the least recently used entry beyond its capacity", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("evicts the least recently used entries beyond its weight, an entry heavier than the whole included", () => {
    const cache = new LruCache<string, string>(10, { weigh: (value) => value.length, max: 5 });
    cache.set("a", "xx");
    cache.set("b", "yy");
    expect(cache.get("a")).toBe("xx");
    cache.set("c", "zz");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.size).toBe(2);
    // Replacing an entry counts its new weight only.
    cache.set("a", "x");
    cache.set("d", "ww");
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual(["x", "zz", "ww"]);
    cache.set("e", "vvvvvv");
    expect(cache.size).toBe(0);
  });
});

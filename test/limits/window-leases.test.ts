// The fan-out class's leases of the shared windows (src/limits/window-leases.ts), against an in-memory stand-in for the
// shared table that answers a tick later, as the database would: replicas together never admit past the limit, a
// replica answers from its lease without waiting and takes the next one before it runs out, what leases leave unused
// stays within 10 % of the limit, and without the database a replica counts on its own.
import { describe, expect, it, vi } from "vitest";
import {
  MemoryWindowCounter,
  type SharedWindowCount,
  type WindowCount,
} from "../../src/limits/window-counters.ts";
import { WindowLeases } from "../../src/limits/window-leases.ts";
import type { Logger } from "../../src/logger.ts";
import { silentLogger } from "../../src/logger.ts";
import { ManualClock } from "../support/clock.ts";

const MINUTE = 60_000;

class SharedWindowsStandIn {
  readonly #hits = new Map<string, number>();
  adds = 0;
  down = false;
  constructor(private readonly clock: ManualClock) {}

  async add(key: string, windowMs: number, hits: number): Promise<SharedWindowCount> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.down) throw new Error("connection refused");
    this.adds += 1;
    const now = this.clock.now().getTime();
    const windowStart = now - (now % windowMs);
    const total = (this.#hits.get(`${key}@${windowStart}`) ?? 0) + hits;
    this.#hits.set(`${key}@${windowStart}`, total);
    return { windowStart, hits: total, ttl: windowStart + windowMs - now };
  }
}

function replicaOf(shared: SharedWindowsStandIn, clock: ManualClock, replicas = 1, logger = silentLogger()) {
  return new WindowLeases(shared, new MemoryWindowCounter(clock), { count: replicas }, clock, logger);
}

const admitted = (counts: WindowCount[], limit: number) =>
  counts.filter((count) => count.current <= limit).length;

describe("the shared windows' leases", () => {
  it("size a lease so that one and a half per replica stay within 10 % of the limit, at most 100 hits", () => {
    const clock = new ManualClock();
    const shared = new SharedWindowsStandIn(clock);
    expect(replicaOf(shared, clock, 1).leaseSize(60)).toBe(4);
    expect(replicaOf(shared, clock, 2).leaseSize(60)).toBe(2);
    expect(replicaOf(shared, clock, 1).leaseSize(5)).toBe(1);
    expect(replicaOf(shared, clock, 3).leaseSize(100_000_000)).toBe(100);
  });

  it("admit a burst spread over two replicas exactly up to the one limit", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(clock);
    const replicas = [replicaOf(shared, clock, 2), replicaOf(shared, clock, 2)];
    const counts = await Promise.all(
      Array.from({ length: 200 }, (_, i) => replicas[i % 2]!.incr("quote:ip:a", MINUTE, 60)),
    );
    expect(admitted(counts, 60)).toBe(60);
    // Each replica admitted part of it; every refusal says the window is used up until it ends.
    for (const replica of [0, 1])
      expect(
        admitted(
          counts.filter((_, i) => i % 2 === replica),
          60,
        ),
      ).toBeGreaterThan(0);
    for (const count of counts.filter((count) => count.current > 60)) expect(count.ttl).toBe(50_000);
  });

  it("answer from the lease at once and take the next one before it runs out, counting exactly on one replica", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(clock);
    const replica = replicaOf(shared, clock);
    let waited = 0;
    const currents: number[] = [];
    for (let i = 0; i < 200; i++) {
      const counted = replica.incr("quote:ip:a", MINUTE, 600);
      if (counted instanceof Promise) waited += 1;
      currents.push((await counted).current);
      // The database answers between requests, as it does between a client's requests.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Leases of 40: only the window's first request waited, and one upsert served 40 requests.
    expect(waited).toBe(1);
    expect(currents).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(shared.adds).toBeLessThanOrEqual(6);
  });

  it("leave at most 10 % of the limit unused when one replica holds leases it does not use", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(clock);
    const [a, b] = [replicaOf(shared, clock, 2), replicaOf(shared, clock, 2)];
    // One request through B, which leases (and takes its next lease early), then everything through A.
    const counts = [await b.incr("quote:ip:a", MINUTE, 60)];
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 100; i++) counts.push(await a.incr("quote:ip:a", MINUTE, 60));
    expect(admitted(counts, 60)).toBeGreaterThanOrEqual(54);
    expect(admitted(counts, 60)).toBeLessThanOrEqual(60);
  });

  it("start over in the next window", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(clock);
    const replica = replicaOf(shared, clock);
    for (let i = 0; i < 5; i++) await replica.incr("quote:ip:a", MINUTE, 3);
    expect((await replica.incr("quote:ip:a", MINUTE, 3)).current).toBeGreaterThan(3);
    clock.advance(50_000);
    expect(await replica.incr("quote:ip:a", MINUTE, 3)).toEqual({ current: 1, ttl: MINUTE });
  });

  it("count on this replica while the database does not answer, with one warning, and lease again after", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(clock);
    const warn = vi.fn();
    const logger = { warn, info: vi.fn() } as unknown as Logger;
    const replica = replicaOf(shared, clock, 1, logger);
    shared.down = true;
    const counts = [];
    for (let i = 0; i < 5; i++) counts.push(await replica.incr("quote:ip:a", MINUTE, 3));
    expect(counts.map((count) => count.current)).toEqual([1, 2, 3, 4, 5]);
    expect(warn).toHaveBeenCalledTimes(1);
    shared.down = false;
    // The shared window was never counted meanwhile: the database's count starts again from there.
    expect((await replica.incr("quote:ip:a", MINUTE, 3)).current).toBe(1);
  });

  it("answer after this replica's clock jumped past the lease's end while the database's window goes on", async () => {
    const databaseClock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const replicaClock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const shared = new SharedWindowsStandIn(databaseClock);
    const replica = replicaOf(shared, replicaClock);
    await replica.incr("quote:ip:a", MINUTE, 600);
    // An NTP step, or a test's clock: two minutes on here, the database's window still the first.
    replicaClock.advance(2 * MINUTE);
    const counted = await Promise.race([
      Promise.resolve(replica.incr("quote:ip:a", MINUTE, 600)),
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 1000)),
    ]);
    expect(counted).toMatchObject({ current: expect.any(Number), ttl: 50_000 });
    expect(shared.adds).toBeLessThanOrEqual(3);
  });
});

// GenerationCache: one rebuild per generation change, the generation re-read at most once per maxAgeMs, and a
// write made in this process (followed by invalidate) seen by every read that starts after it, even while an
// older refresh is still in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { bumpGeneration, GenerationCache } from "../../src/db/generations.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { gate } from "../support/gates.ts";

describe("GenerationCache", () => {
  let database: Database;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("rebuilds only when the generation changed, looking at most once per maxAgeMs", async () => {
    let builds = 0;
    const cache = new GenerationCache(
      database,
      "discounts",
      async (generation) => `built ${++builds} at ${generation}`,
      clock,
      100,
    );
    const first = await cache.get();
    expect(await Promise.all([cache.get(), cache.get()])).toEqual([first, first]);
    await bumpGeneration(database.db, "discounts");
    expect(await cache.get()).toBe(first); // not looked yet
    clock.advance(100);
    const second = await cache.get();
    expect(second).not.toBe(first);
    clock.advance(100);
    expect(await cache.get()).toBe(second); // looked, same generation: no rebuild
    expect(builds).toBe(2);
  });

  it("does not hand a read that starts after invalidate() the result of a refresh begun before it", async () => {
    let data = "before the write";
    let hold = gate();
    const cache = new GenerationCache(
      database,
      "discounts",
      async () => {
        const seen = data;
        await hold.opened;
        return seen;
      },
      clock,
      60_000,
    );
    clock.advance(60_000);
    const early = cache.get(); // reads "before the write", then waits
    await new Promise((resolve) => setTimeout(resolve, 50));
    data = "after the write";
    await bumpGeneration(database.db, "discounts");
    cache.invalidate();
    const release = hold;
    hold = gate();
    const late = cache.get();
    release.open();
    hold.open();
    expect(await early).toBe("before the write");
    expect(await late).toBe("after the write");
    expect(await cache.get()).toBe("after the write");
  });
});

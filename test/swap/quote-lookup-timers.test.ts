// The grace loop of QuoteLookup under timers that fire a little early by performance.now() (libuv's timers run
// on a millisecond clock cached at the start of each loop turn). A CI run saw seven lookups in a 150 ms grace:
// the loop went on through sub-millisecond sleeps, one lookup each, after the sleep meant to be its last.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** Simulated time: each sleep "fires" 1 % early, and resolves at once. */
const simulated = vi.hoisted(() => ({ nowMs: 0 }));

vi.mock("node:timers/promises", () => ({
  setTimeout: async (delayMs: number) => {
    simulated.nowMs += delayMs * 0.99;
  },
}));

import { QuoteLookup } from "../../src/swap/quote-lookup.ts";
import { ManualClock } from "../support/clock.ts";

const LIFETIME_SECONDS = 120;
const NOW_MS = Date.UTC(2026, 10, 21, 12, 0, 0, 500);
const FRESH_DEADLINE = Math.floor(NOW_MS / 1000) + LIFETIME_SECONDS;

describe("QuoteLookup with early-firing timers", () => {
  beforeEach(() => {
    simulated.nowMs = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => simulated.nowMs);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("ends its grace after the sleep that reaches its end: one lookup per backoff step", async () => {
    let lookups = 0;
    const lookup = new QuoteLookup({
      repository: {
        findQuote: async () => {
          lookups++;
          // The old loop never ended here; stop it rather than hang the suite.
          if (lookups > 50) throw new Error("the grace loop does not end");
          return undefined;
        },
      },
      pending: { settled: async () => {} },
      clock: new ManualClock(NOW_MS),
      quoteLifetimeSeconds: LIFETIME_SECONDS,
      graceMs: 150,
    });
    expect(await lookup.find("q1", FRESH_DEADLINE)).toBeUndefined();
    // The first look, then after 10, 20, 40, 80 ms and the short rest of the grace.
    expect(lookups).toBe(6);
    expect(simulated.nowMs - 1_000).toBeLessThanOrEqual(150);
  });
});

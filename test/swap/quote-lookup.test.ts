// The lookup POST /order makes now that rounds are stored after the answer: waiting for this process's pending
// write, looking again for a fresh quote another replica may still be storing, and calling an old unknown quote
// unknown at once.
import { describe, expect, it } from "vitest";
import { QuoteLookup } from "../../src/swap/quote-lookup.ts";
import type { StoredQuote } from "../../src/swap/repository.ts";
import { ManualClock } from "../support/clock.ts";
import { gate, settledWithin } from "../support/gates.ts";

const LIFETIME_SECONDS = 120;
const NOW_MS = Date.UTC(2026, 10, 21, 12, 0, 0, 500);
/** The deadline /quote gives a quote issued at NOW_MS. */
const FRESH_DEADLINE = Math.floor(NOW_MS / 1000) + LIFETIME_SECONDS;

/** A repository whose quote appears once `stored()` is called, counting lookups. */
function fakeRepository() {
  const quote = { quote: { quoteId: "q1" } } as unknown as StoredQuote;
  let present = false;
  const state = {
    lookups: 0,
    stored: () => {
      present = true;
    },
    repository: {
      findQuote: async (quoteId: string) => {
        state.lookups++;
        return present && quoteId === "q1" ? quote : undefined;
      },
    },
    quote,
  };
  return state;
}

const nothingPending = { settled: async () => {} };

describe("QuoteLookup", () => {
  const clock = new ManualClock(NOW_MS);
  const lookupFor = (
    fake: ReturnType<typeof fakeRepository>,
    options: { graceMs: number; pending: ConstructorParameters<typeof QuoteLookup>[0]["pending"] },
  ) =>
    new QuoteLookup({
      repository: fake.repository,
      clock,
      quoteLifetimeSeconds: LIFETIME_SECONDS,
      ...options,
    });

  it("waits for this process's pending write of the quote before looking", async () => {
    const fake = fakeRepository();
    const write = gate();
    // This process's writer: the round of q1 is stored once the gate opens.
    const pending = {
      settled: async (quoteId: string) => {
        if (quoteId === "q1") await write.opened.then(() => fake.stored());
      },
    };
    // No grace: only the wait for the pending write can find it.
    const lookup = lookupFor(fake, { graceMs: 0, pending: pending });
    const found = lookup.find("q1", FRESH_DEADLINE);
    expect(await settledWithin(found, 50)).toBe(false);
    write.open();
    expect(await found).toBe(fake.quote);
    expect(fake.lookups).toBe(1);
  });

  it("looks again, with backoff, for a fresh quote another replica is still storing", async () => {
    const fake = fakeRepository();
    const lookup = lookupFor(fake, { graceMs: 1000, pending: nothingPending });
    setTimeout(() => fake.stored(), 60);
    const started = performance.now();
    expect(await lookup.find("q1", FRESH_DEADLINE)).toBe(fake.quote);
    expect(performance.now() - started).toBeLessThan(500);
    // 10, 20, 40 ms… apart: a handful of lookups, not one per millisecond.
    expect(fake.lookups).toBeGreaterThanOrEqual(3);
    expect(fake.lookups).toBeLessThanOrEqual(6);
  });

  it("gives up on a fresh unknown quote after the grace period", async () => {
    const fake = fakeRepository();
    const lookup = lookupFor(fake, { graceMs: 150, pending: nothingPending });
    const started = performance.now();
    expect(await lookup.find("q1", FRESH_DEADLINE)).toBeUndefined();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(600);
    expect(fake.lookups).toBeLessThanOrEqual(6);
  });

  it("calls a quote issued longer ago than the grace period unknown at once", async () => {
    const fake = fakeRepository();
    const lookup = lookupFor(fake, { graceMs: 1000, pending: nothingPending });
    // Issued 3 s ago, by its deadline.
    expect(await lookup.find("q1", FRESH_DEADLINE - 3)).toBeUndefined();
    expect(fake.lookups).toBe(1);
  });

  it("counts a deadline's rounded-down second: a quote issued late in a second still gets its grace", async () => {
    // Issued at 12:00:00.999, deadline 12:02:00; looked up at 12:00:01.5 — 0.5 s after it was issued.
    const late = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 1, 500));
    const fake = fakeRepository();
    const lookup = new QuoteLookup({
      repository: fake.repository,
      pending: nothingPending,
      clock: late,
      quoteLifetimeSeconds: LIFETIME_SECONDS,
      graceMs: 1000,
    });
    setTimeout(() => fake.stored(), 100);
    expect(await lookup.find("q1", FRESH_DEADLINE)).toBe(fake.quote);
  });
});

// The pieces under the limits, alone: the in-memory window counter (aligned windows, one count per key, each class's
// windows swept by their own length) and /quote's admission (rounds in flight, event-loop lag).
import { describe, expect, it } from "vitest";
import { OverloadedError } from "../../src/limits/errors.ts";
import { QuoteAdmission } from "../../src/limits/quote-admission.ts";
import { MemoryWindowCounter } from "../../src/limits/window-counters.ts";
import { ManualClock } from "../support/clock.ts";
import { capturingLogger } from "../support/log-lines.ts";

describe("the in-memory window counter", () => {
  it("counts per key in windows aligned to their length, and says how long each has left", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 30));
    const counter = new MemoryWindowCounter(clock);
    expect(counter.incr("quote:ip:a", 60_000)).toEqual({ current: 1, ttl: 30_000 });
    expect(counter.incr("quote:ip:a", 60_000)).toEqual({ current: 2, ttl: 30_000 });
    expect(counter.incr("quote:ip:b", 60_000)).toEqual({ current: 1, ttl: 30_000 });
    clock.advance(29_999);
    expect(counter.incr("quote:ip:a", 60_000)).toEqual({ current: 3, ttl: 1 });
    clock.advance(1);
    expect(counter.incr("quote:ip:a", 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });

  it("sweeps a window only once it is over by its own length, whichever class brings the sweep", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const counter = new MemoryWindowCounter(clock);
    counter.incr("quote:ip:held", 60_000);
    counter.incr("quote:ip:held", 60_000);
    for (let i = 0; i < 10_000; i++) counter.incr(`read:ip:${i}`, 1000);
    clock.advance(5000);
    // A new reader's window sweeps: the reads' windows are over, the minute's is not.
    counter.incr("read:ip:new", 1000);
    expect(counter.incr("quote:ip:held", 60_000).current).toBe(3);
  });
});

describe("/quote's admission", () => {
  it("admits up to its budget of rounds in flight, and again once one is released", () => {
    const admission = new QuoteAdmission({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const first = admission.admit();
    admission.admit();
    expect(() => admission.admit()).toThrow(OverloadedError);
    first();
    first();
    expect(admission.inFlight).toBe(1);
    expect(() => admission.admit()).not.toThrow();
  });

  it("sheds while the event loop lags beyond its bound, and never with the bound at 0", () => {
    let lag = 0;
    const admission = new QuoteAdmission({ maxInFlight: 100, maxEventLoopDelayMs: 200 });
    admission.measureLagWith(() => lag);
    admission.admit();
    lag = 250;
    let refusal: unknown;
    try {
      admission.admit();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(OverloadedError);
    expect((refusal as OverloadedError).details).toEqual({ reason: "event_loop_lag", retryAfterSeconds: 1 });
    const never = new QuoteAdmission({ maxInFlight: 100, maxEventLoopDelayMs: 0 });
    never.measureLagWith(() => 10_000);
    expect(() => never.admit()).not.toThrow();
  });

  it("tells a shedding episode once: a warning when it starts, one line with its refusals when it ends", async () => {
    const { logger, lines } = capturingLogger<{
      level: number;
      msg: string;
      reason?: string;
      refused?: number;
    }>();
    const admission = new QuoteAdmission({ maxInFlight: 1, maxEventLoopDelayMs: 0, logger });
    const release = admission.admit();
    for (let i = 0; i < 5; i++) expect(() => admission.admit()).toThrow(OverloadedError);
    release();
    admission.admit();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(({ level, msg, reason, refused }) => ({ level, msg, reason, refused }))).toEqual([
      {
        level: 40,
        msg: "shedding /quote rounds: answering 503 OVERLOADED until the load falls",
        reason: "quote_rounds",
        refused: undefined,
      },
      { level: 30, msg: "admitting /quote rounds again after shedding", reason: "quote_rounds", refused: 5 },
    ]);
  });
});

// The fade breaker's rules without storage: the doubling and its reset, which fades and failures count, what an
// order's end means for its solver, and the deployment file's cooldown section.
import { describe, expect, it } from "vitest";
import { REFRESH_INTERVAL_MS } from "../../src/cooldowns/cooldowns.ts";
import { outcomeOf } from "../../src/cooldowns/fades.ts";
import {
  countedFades,
  fadesCallForCooldown,
  failuresCallForCooldown,
  nextCooldown,
} from "../../src/cooldowns/policy.ts";
import { CooldownConfigSchema } from "../../src/deployment/schema.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const config = CooldownConfigSchema.parse({});

describe("the cooldown's length", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  const lengthAfter = (repeats: number, lastEndedAt: Date | null) => {
    const next = nextCooldown({ repeats, lastEndedAt }, now, config);
    return { minutes: (next.until.getTime() - now.getTime()) / MINUTE, repeats: next.repeats };
  };

  it("starts at 15 minutes and doubles on each repeat within the window, up to 32 hours", () => {
    const justEnded = new Date(now.getTime() - MINUTE);
    expect(lengthAfter(0, null)).toEqual({ minutes: 15, repeats: 1 });
    expect(lengthAfter(1, justEnded)).toEqual({ minutes: 30, repeats: 2 });
    expect(lengthAfter(2, justEnded)).toEqual({ minutes: 60, repeats: 3 });
    expect(lengthAfter(7, justEnded)).toEqual({ minutes: 32 * 60, repeats: 8 });
    expect(lengthAfter(8, justEnded)).toEqual({ minutes: 32 * 60, repeats: 9 });
    expect(lengthAfter(5000, justEnded).minutes).toBe(32 * 60);
  });

  it("starts over after a clean repeat window", () => {
    expect(lengthAfter(6, new Date(now.getTime() - 24 * HOUR))).toEqual({ minutes: 16 * 60, repeats: 7 });
    expect(lengthAfter(6, new Date(now.getTime() - 24 * HOUR - 1))).toEqual({ minutes: 15, repeats: 1 });
  });
});

describe("what counts", () => {
  const faded = (swapper: string) => ({ outcome: "faded" as const, swapper });
  const filled = { outcome: "filled" as const, swapper: "0xa" };

  it("counts one fade per swapper, and more than maxFades (2) calls for a cooldown", () => {
    expect(countedFades([faded("0xa"), faded("0xa"), faded("0xa"), filled])).toBe(1);
    expect(fadesCallForCooldown([faded("0xa"), faded("0xb"), filled], config)).toBe(false);
    expect(fadesCallForCooldown([faded("0xa"), faded("0xb"), faded("0xc")], config)).toBe(true);
  });

  it("judges failures only over a full window, above the share", () => {
    expect(failuresCallForCooldown(19, 19, config)).toBe(false);
    expect(failuresCallForCooldown(10, 20, config)).toBe(false);
    expect(failuresCallForCooldown(11, 20, config)).toBe(true);
  });

  it("blames an expiry only with a fair chance to fill; a cancellation or an error never", () => {
    const createdAt = new Date("2026-11-27T12:00:00Z");
    const at = (seconds: number) => Math.floor(createdAt.getTime() / 1000) + seconds;
    const order = { status: "expired", deadline: at(120), createdAt, shortfall: false };
    expect(outcomeOf(order, 30)).toBe("faded");
    expect(outcomeOf({ ...order, deadline: at(30) }, 30)).toBe("faded");
    expect(outcomeOf({ ...order, deadline: at(29) }, 30)).toBe("excused");
    expect(outcomeOf({ ...order, shortfall: true }, 30)).toBe("excused");
    expect(outcomeOf({ ...order, status: "cancelled" }, 30)).toBe("excused");
    expect(outcomeOf({ ...order, status: "error" }, 30)).toBe("excused");
    expect(outcomeOf({ ...order, status: "filled", shortfall: true }, 30)).toBe("filled");
  });

  it("has replicas re-read the stored state within 250 ms", () => {
    expect(REFRESH_INTERVAL_MS).toBeLessThanOrEqual(250);
  });
});

describe("the deployment file's cooldown section", () => {
  it("has the issue's defaults", () => {
    expect(config).toEqual({
      base: 15 * MINUTE,
      max: 32 * HOUR,
      repeatWindow: 24 * HOUR,
      fades: { window: 10, maxFades: 2 },
      failures: { window: 20, maxShare: 0.5 },
      minFillWindowSeconds: 30,
    });
  });

  it("reads durations with units and names a bad field", () => {
    expect(CooldownConfigSchema.parse({ base: "90s", max: "2d", repeatWindow: "12h" })).toMatchObject({
      base: 90_000,
      max: 48 * HOUR,
      repeatWindow: 12 * HOUR,
    });
    const bad = CooldownConfigSchema.safeParse({ base: "15 minutes" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join("."))).toEqual(["base"]);
    const inverted = CooldownConfigSchema.safeParse({
      base: "1h",
      max: "1m",
      fades: { window: 2, maxFades: 2 },
    });
    expect(inverted.error?.issues.map((issue) => issue.path.join("."))).toEqual(["max", "fades.maxFades"]);
  });
});

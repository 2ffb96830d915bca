// uuidV7: RFC 9562 version-7 ids carry their time in the first 48 bits, the version and variant in place, random bits
// elsewhere; they sort by time, never repeat, and every UUID check Sluice's schemas make accepts them.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { uuidV7 } from "../../src/shared/uuid-v7.ts";

const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV7", () => {
  it("puts the time in the first 48 bits, version 7 and the RFC variant in place", () => {
    const at = Date.UTC(2026, 10, 28, 14, 5, 6, 789);
    const id = uuidV7(at);
    expect(id).toMatch(VERSION_7);
    expect(Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(at);
    expect(uuidV7(0).startsWith("00000000-0000-7")).toBe(true);
    expect(uuidV7(2 ** 48 - 1).startsWith("ffffffff-ffff-7")).toBe(true);
  });

  it("sorts by time across milliseconds and never repeats", () => {
    const ids = Array.from({ length: 100_000 }, (_, index) =>
      uuidV7(1_800_000_000_000 + Math.floor(index / 100)),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (let index = 100; index < ids.length; index += 100) expect(ids[index - 1]! < ids[index]!).toBe(true);
    // Within one millisecond the rest is random: the 74 bits after the time differ between ids.
    const sameMillisecond = new Set(ids.slice(0, 100).map((id) => id.slice(15)));
    expect(sameMillisecond.size).toBe(100);
  });

  it("is a UUID to every schema that reads one", () => {
    const id = uuidV7();
    expect(z.uuid().parse(id)).toBe(id);
    expect(z.string().uuid().parse(id)).toBe(id);
  });
});

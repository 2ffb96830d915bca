// Quote entry nonces from the pooled CSPRNG bytes: 256-bit, never repeated across refills, spread over the range.
import { describe, expect, it } from "vitest";
import { RandomNoncePool } from "../../src/swap/nonces.ts";

describe("RandomNoncePool", () => {
  it("draws distinct 256-bit nonces across several refills, spread over the whole range", () => {
    const pool = new RandomNoncePool();
    const nonces = Array.from({ length: 1000 }, () => pool.next());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) {
      expect(nonce).toBeGreaterThanOrEqual(0n);
      expect(nonce).toBeLessThan(2n ** 256n);
    }
    // Uniform over 256 bits: about half have the top bit set, and the low bits vary too.
    const topBitSet = nonces.filter((nonce) => nonce >> 255n === 1n).length;
    expect(topBitSet).toBeGreaterThan(400);
    expect(topBitSet).toBeLessThan(600);
    expect(new Set(nonces.map((nonce) => nonce & 0xffn)).size).toBeGreaterThan(200);
  });

  it("gives two pools different nonces", () => {
    expect(new RandomNoncePool().next()).not.toBe(new RandomNoncePool().next());
  });
});

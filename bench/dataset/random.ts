// Deterministic randomness for the benchmark dataset: the same seed gives the same rows on every machine,
// so a result can be compared with a run from another day.
import type { Address } from "viem";

/** murmur3's 32-bit finaliser: a cheap, well-mixed hash of one integer. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The address of receiver number `index` (0 to 2^32 - 1): 128 hashed bits, then the index itself, so two
 * indexes never share an address and the order by address is unrelated to the order by index.
 */
export function receiverAddress(index: number, seed: number): Address {
  let hex = "0x";
  for (let word = 0; word < 4; word++) {
    hex += mix32(mix32(index) ^ mix32(seed + word))
      .toString(16)
      .padStart(8, "0");
  }
  return `${hex}${(index >>> 0).toString(16).padStart(8, "0")}` as Address;
}

/** Log-uniform draw in [min, max]: most values near the bottom, a few near the top. */
export function logUniform(random: () => number, min: number, max: number): number {
  return Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min)));
}

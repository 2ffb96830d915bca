// Reactor nonces for quote entries: uniformly random 256-bit values. They are drawn from a pool of CSPRNG bytes
// refilled 128 nonces at a time, so the six entries of a /quote answer cost no randomBytes call of their own on
// the path between the last solver answer and the answer. A nonce is public once answered; what matters is that
// it cannot be guessed before and never repeats, which bytes from the CSPRNG used once each keep.
import { randomBytes } from "node:crypto";

const NONCE_BYTES = 32;
const NONCES_PER_REFILL = 128;

export class RandomNoncePool {
  #pool = Buffer.alloc(0);
  #offset = 0;

  /** The next nonce; each pooled byte is used for one nonce only. */
  next(): bigint {
    if (this.#offset + NONCE_BYTES > this.#pool.length) {
      this.#pool = randomBytes(NONCE_BYTES * NONCES_PER_REFILL);
      this.#offset = 0;
    }
    const hex = this.#pool.toString("hex", this.#offset, this.#offset + NONCE_BYTES);
    this.#offset += NONCE_BYTES;
    return BigInt(`0x${hex}`);
  }
}

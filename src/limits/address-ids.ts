// The anonymous tier's caller id of a client address: `ip:` and the address as @fastify/rate-limit normalizes it
// (lower case, an IPv4-mapped IPv6 address as IPv4, other IPv6 addresses per /64). Normalizing runs Node's IPv6
// pattern even on an IPv4 address, and a client sends many requests from one address: each address's id is kept,
// up to a bound past which the kept ones are dropped and found again.
import { normalizeIP } from "@fastify/rate-limit";

const KEEP_AT_MOST = 10_000;

export class AddressIds {
  readonly #ids = new Map<string, string>();

  of(address: string): string {
    let id = this.#ids.get(address);
    if (id === undefined) {
      if (this.#ids.size >= KEEP_AT_MOST) this.#ids.clear();
      id = `ip:${normalizeIP(address)}`;
      this.#ids.set(address, id);
    }
    return id;
  }
}

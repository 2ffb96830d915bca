// The anonymous tier's callers, one per client address. A caller's id is `ip:` and the address as @fastify/rate-limit
// normalizes it (lower case, an IPv4-mapped IPv6 address as IPv4, other IPv6 addresses per /64). Normalizing runs
// Node's IPv6 pattern even on an IPv4 address, and a client sends many requests from one address: each address's
// caller (its id, counter keys and limit texts) is made once and kept, up to a bound past which the kept ones are
// dropped and made again.
import { normalizeIP } from "@fastify/rate-limit";
import { allowancesOf, type Caller, type CallerLimits } from "./classes.ts";

const KEEP_AT_MOST = 10_000;

export type AnonymousCaller = Extract<Caller, { kind: "ip" }>;

export class AnonymousCallers {
  readonly #callers = new Map<string, AnonymousCaller>();

  constructor(private readonly limits: CallerLimits) {}

  of(address: string): AnonymousCaller {
    let caller = this.#callers.get(address);
    if (caller === undefined) {
      if (this.#callers.size >= KEEP_AT_MOST) this.#callers.clear();
      const id = `ip:${normalizeIP(address)}`;
      caller = { kind: "ip", id, limits: this.limits, allowances: allowancesOf(id, this.limits) };
      this.#callers.set(address, caller);
    }
    return caller;
  }
}

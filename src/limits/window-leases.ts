// The fan-out class's venue-wide count without a database round trip per request. A replica takes a caller's hits from
// the shared window (window-counters.ts) in leases of several at once, one upsert each, admits from its lease in
// memory, and takes the next lease in the background once half of the current one is used. The shared window counts
// every lease in full, and a lease grants only the hits up to the limit, so the replicas together never admit more
// than the limit. What a replica leased and did not use by the window's end is lost: it holds at most one and a half
// leases, and a lease is at most the limit / (15 × the replicas present), so that loss stays within 10 % of the limit.
// Should the database not answer, the replica counts on its own meanwhile (logged).
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { MemoryWindowCounter, PostgresWindows, WindowCount, WindowCounter } from "./window-counters.ts";

/** A lease is at most this many hits: the venue's count a replica sees is never older than that many of its hits. */
const MAX_LEASE = 100;
/** Leases per window that the 10 % bound divides the limit by: 1.5 leases held per replica, times 10. */
const LEASE_DIVISOR = 15;

/** One caller's window on this replica. */
interface Lease {
  /** The shared window's start (database clock): a lease of a later window replaces this one. */
  windowStart: number;
  /** When the window ends, by this replica's clock. */
  endsAt: number;
  /** Hits granted to this replica and not used yet. */
  available: number;
  /** The venue's hits at the last lease, at most the limit. */
  venueHits: number;
  /** The limit is reached venue-wide: nothing more is granted in this window. */
  exhausted: boolean;
}

export class WindowLeases implements WindowCounter {
  readonly #leases = new Map<string, Lease>();
  /** The lease being taken per key: requests that find none left wait for it. */
  readonly #taking = new Map<string, Promise<void>>();
  /** The latest window start whose first lease swept the leases over. */
  #sweptAt = 0;
  #failing = false;

  constructor(
    private readonly windows: Pick<PostgresWindows, "add">,
    /** Counts a hit while the database does not answer: this replica's own count, the limit still bounded. */
    private readonly fallback: MemoryWindowCounter,
    /** The replicas sharing the limit (replica-presence.ts): each leases a smaller part of it. */
    private readonly replicas: { readonly count: number },
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The hits one lease asks for under `limit`. */
  leaseSize(limit: number): number {
    return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / (LEASE_DIVISOR * this.replicas.count))));
  }

  incr(key: string, windowMs: number, limit: number): WindowCount | Promise<WindowCount> {
    const now = this.clock.now().getTime();
    const lease = this.#leases.get(key);
    if (lease && now < lease.endsAt) {
      if (lease.available > 0) return this.#use(lease, key, windowMs, limit, now);
      if (lease.exhausted) return { current: limit + 1, ttl: lease.endsAt - now };
    }
    return this.#waitForLease(key, windowMs, limit);
  }

  async #waitForLease(key: string, windowMs: number, limit: number): Promise<WindowCount> {
    for (;;) {
      try {
        await (this.#taking.get(key) ?? this.#take(key, windowMs, limit));
      } catch {
        return this.fallback.incr(key, windowMs);
      }
      const now = this.clock.now().getTime();
      const lease = this.#leases.get(key);
      // Another waiter may have used the last granted hit, or the window ended meanwhile: then take another lease.
      if (!lease || now >= lease.endsAt) continue;
      if (lease.available > 0) return this.#use(lease, key, windowMs, limit, now);
      if (lease.exhausted) return { current: limit + 1, ttl: lease.endsAt - now };
    }
  }

  #use(lease: Lease, key: string, windowMs: number, limit: number, now: number): WindowCount {
    lease.available -= 1;
    const size = this.leaseSize(limit);
    // Half used: the next lease is taken while this one still serves (none for leases of one hit: each would be lost
    // at the window's end as often as used).
    if (size > 1 && lease.available <= size >> 1 && !lease.exhausted && !this.#taking.has(key))
      this.#take(key, windowMs, limit).catch(() => {});
    // The hits this replica holds unused are the last ones counted: the venue has used the others.
    return { current: lease.venueHits - lease.available, ttl: lease.endsAt - now };
  }

  /** Takes a lease of `key`'s window; a rejection means the database did not answer (logged once per outage). */
  #take(key: string, windowMs: number, limit: number): Promise<void> {
    const size = this.leaseSize(limit);
    const taking = this.windows.add(key, windowMs, size).then(
      (shared) => {
        this.#taking.delete(key);
        if (this.#failing) this.logger.info("rate limits: shared counters answer again");
        this.#failing = false;
        const granted = Math.max(0, Math.min(shared.hits, limit) - (shared.hits - size));
        const venueHits = Math.min(shared.hits, limit);
        const exhausted = shared.hits >= limit;
        const lease = this.#leases.get(key);
        if (lease && lease.windowStart === shared.windowStart) {
          // The window's end by the database's count: this replica's clock may have jumped since the last lease.
          lease.endsAt = this.clock.now().getTime() + shared.ttl;
          lease.available += granted;
          lease.venueHits = Math.max(lease.venueHits, venueHits);
          lease.exhausted ||= exhausted;
        } else if (!lease || lease.windowStart < shared.windowStart) {
          const endsAt = this.clock.now().getTime() + shared.ttl;
          this.#leases.set(key, {
            windowStart: shared.windowStart,
            endsAt,
            available: granted,
            venueHits,
            exhausted,
          });
          this.#sweep(shared.windowStart);
        }
      },
      (error: unknown) => {
        this.#taking.delete(key);
        if (!this.#failing)
          this.logger.warn(
            { err: error },
            "rate limits: shared counters unreachable; counting on this replica",
          );
        this.#failing = true;
        throw error;
      },
    );
    this.#taking.set(key, taking);
    return taking;
  }

  /** Drops the leases of windows over: the first lease of each new window start brings the sweep. */
  #sweep(windowStart: number): void {
    if (windowStart <= this.#sweptAt) return;
    this.#sweptAt = windowStart;
    const now = this.clock.now().getTime();
    for (const [key, lease] of this.#leases) if (lease.endsAt <= now) this.#leases.delete(key);
  }
}

// A replica's share of a venue-wide limit: every hit it counts weighs as many hits as there are replicas, so behind a
// balancer that spreads a client's requests the replicas together admit the configured rate (within one request per
// replica and window), and RateLimit-Remaining is the venue's estimate, not one replica's.
import type { MemoryWindowCounter, WindowCount, WindowCounter } from "./window-counters.ts";

export class ReplicaShareCounter implements WindowCounter {
  constructor(
    private readonly local: MemoryWindowCounter,
    private readonly replicas: { readonly count: number },
  ) {}

  incr(key: string, windowMs: number): WindowCount {
    const { current, ttl } = this.local.incr(key, windowMs);
    return { current: current * this.replicas.count, ttl };
  }
}

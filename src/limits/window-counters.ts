// Hit counters per caller and fixed window: in memory (one replica's own count, answered at once), or in PostgreSQL
// (every replica's, one upsert per hit, by the database's clock). The request limits count through them.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";

export interface WindowCount {
  /** Hits in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Counts one hit of a caller in its current window, against `limit` (a counter may use it to size its work). An
 * in-memory count answers at once; one that needs the database answers with a promise.
 */
export interface WindowCounter {
  incr(key: string, windowMs: number, limit: number): WindowCount | Promise<WindowCount>;
}

/** Beyond this many keys, windows already over are swept out, at most once a second. */
const SWEEP_ABOVE = 10_000;
const SWEEP_EVERY_MS = 1000;

export class MemoryWindowCounter implements WindowCounter {
  readonly #windows = new Map<string, { start: number; end: number; hits: number }>();
  #sweptAt = 0;

  constructor(private readonly clock: Clock) {}

  incr(key: string, windowMs: number): WindowCount {
    const now = this.clock.now().getTime();
    const start = now - (now % windowMs);
    let window = this.#windows.get(key);
    if (!window || window.start !== start) {
      if (!window && this.#windows.size >= SWEEP_ABOVE) this.#sweep(now);
      window = { start, end: start + windowMs, hits: 0 };
      this.#windows.set(key, window);
    }
    window.hits += 1;
    return { current: window.hits, ttl: window.end - now };
  }

  /** Drops the windows that are over (each class has its own length); a flood of new callers sweeps once a second. */
  #sweep(now: number): void {
    if (now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) if (window.end <= now) this.#windows.delete(key);
  }
}

const INCREMENT = `
  with now as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms)
  insert into rate_limit_windows (key, window_start, hits)
  select $1, now.ms - now.ms % $2::bigint, 1 from now
  on conflict (key, window_start) do update set hits = rate_limit_windows.hits + 1
  returning hits, (window_start + $2::bigint - (select ms from now))::int as ttl`;

/** Windows older than this are deleted by `prune` (the longest window is a minute). */
const KEEP_MS = 10 * 60_000;

export class PostgresWindowCounter implements WindowCounter {
  #failing = false;

  constructor(
    private readonly database: Database,
    /** Counts a hit while the database does not answer: this replica's own count, the limit still bounded. */
    private readonly fallback: MemoryWindowCounter,
    private readonly logger: Logger,
  ) {}

  async incr(key: string, windowMs: number): Promise<WindowCount> {
    try {
      const [row] = await this.database.query<{ hits: number; ttl: number }>(INCREMENT, [key, windowMs], {
        name: "rate_limit_incr",
      });
      this.#failing = false;
      return { current: Number(row!.hits), ttl: Math.max(0, Number(row!.ttl)) };
    } catch (error) {
      if (!this.#failing)
        this.logger.warn(
          { err: error },
          "rate limits: shared counters unreachable; counting on this replica",
        );
      this.#failing = true;
      return this.fallback.incr(key, windowMs);
    }
  }

  /** Deletes windows long over. */
  async prune(): Promise<void> {
    await this.database.query(
      "delete from rate_limit_windows where window_start < (extract(epoch from clock_timestamp()) * 1000)::bigint - $1",
      [KEEP_MS],
    );
  }
}

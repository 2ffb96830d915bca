// Hit counters per caller and fixed window: in memory (one replica's own count, answered at once), or the shared
// windows in PostgreSQL (every replica's, by the database's clock), which the fan-out class reads through leases of
// several hits at a time (window-leases.ts) rather than a round trip per request.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";

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

/** A caller's shared window after hits were added to it. */
export interface SharedWindowCount {
  /** The window's start, in ms since the epoch by the database's clock: the same window on every replica. */
  windowStart: number;
  /** Every replica's hits in the window, the ones just added included. */
  hits: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

const ADD = `
  with now as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms)
  insert into rate_limit_windows (key, window_start, hits)
  select $1, now.ms - now.ms % $2::bigint, $3 from now
  on conflict (key, window_start) do update set hits = rate_limit_windows.hits + excluded.hits
  returning window_start, hits, (window_start + $2::bigint - (select ms from now))::int as ttl`;

/** Windows older than this are deleted by `prune` (the longest window is a minute). */
const KEEP_MS = 10 * 60_000;

/** The shared windows: one upsert adds hits to a caller's window and answers the venue's count. */
export class PostgresWindows {
  constructor(private readonly database: Database) {}

  async add(key: string, windowMs: number, hits: number): Promise<SharedWindowCount> {
    const [row] = await this.database.query<{ window_start: string | number; hits: number; ttl: number }>(
      ADD,
      [key, windowMs, hits],
      { name: "rate_limit_add" },
    );
    return {
      windowStart: Number(row!.window_start),
      hits: Number(row!.hits),
      ttl: Math.max(0, Number(row!.ttl)),
    };
  }

  /** Deletes windows long over. */
  async prune(): Promise<void> {
    await this.database.query(
      "delete from rate_limit_windows where window_start < (extract(epoch from clock_timestamp()) * 1000)::bigint - $1",
      [KEEP_MS],
    );
  }
}

// Rate-limit windows are fixed and aligned (src/limits/classes.ts): a burst that straddles a boundary is counted in
// two windows. A test about one window's count starts its burst early in a window, by the database's clock (what the
// shared counters use; the in-memory ones use the system clock, the same one on a test machine).
import type { Database } from "../../src/db/client.ts";

/** Waits, if need be, until at least `leftMs` of the current window of `windowMs` are left. */
export async function waitForFreshWindow(database: Database, windowMs: number, leftMs = 3000): Promise<void> {
  const [row] = await database.query<{ ms: string | number }>(
    "select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms",
  );
  const intoWindow = Number(row!.ms) % windowMs;
  if (windowMs - intoWindow >= leftMs) return;
  await new Promise((resolve) => setTimeout(resolve, windowMs - intoWindow + 5));
}

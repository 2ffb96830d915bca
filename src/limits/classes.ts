// The classes requests are limited in, and each caller's limits. A class's window is fixed and aligned (the same
// boundaries for every replica), so RateLimit-Reset is the same answer wherever a request lands.

/**
 * `quote`: POST /quote and POST /order, which fan out to every solver (per minute, counted venue-wide); `read`: every
 * other API read (per second); `stream`: GET /orders/stream, held open (concurrent streams, STREAM_MAX_PER_IP).
 */
export type LimitClass = "quote" | "read" | "stream";

/** The classes counted per window. */
export type CountedClass = Exclude<LimitClass, "stream">;

export const WINDOW_MS: Record<CountedClass, number> = { quote: 60_000, read: 1000 };

/** One caller's allowance per window of each counted class. */
export interface CallerLimits {
  quote: number;
  read: number;
}

/**
 * What counting a caller in a class needs, made once per caller rather than per request: its counter key
 * (`<class>:<caller id>`) and its limit, as a number and as the RateLimit-Limit header's text.
 */
export interface ClassAllowance {
  key: string;
  limit: number;
  limitText: string;
}

/** Who a limited request is from: an integrator's key, an anonymous client address, or a solver (never limited). */
export type Caller =
  | {
      kind: "key";
      id: string;
      integrator: string;
      limits: CallerLimits;
      allowances: Record<CountedClass, ClassAllowance>;
    }
  | { kind: "ip"; id: string; limits: CallerLimits; allowances: Record<CountedClass, ClassAllowance> }
  | { kind: "solver"; id: string };

/** A caller's allowance in each counted class. */
export function allowancesOf(id: string, limits: CallerLimits): Record<CountedClass, ClassAllowance> {
  const allowance = (limitClass: CountedClass): ClassAllowance => ({
    key: `${limitClass}:${id}`,
    limit: limits[limitClass],
    limitText: String(limits[limitClass]),
  });
  return { quote: allowance("quote"), read: allowance("read") };
}

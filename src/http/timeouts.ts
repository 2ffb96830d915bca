// Applying the configured HTTP timeouts (src/config/http-timeouts.ts) to Node's server.
import type { HttpTimeouts } from "../config/http-timeouts.ts";

/**
 * Node checks the header and request timeouts of open connections on an interval (30 s by default, so a 10 s timeout
 * would fire after up to 40 s); checking a quarter of the shorter timeout, at most every second, keeps them close to
 * what they say.
 */
export function timeoutCheckIntervalMs(timeouts: Pick<HttpTimeouts, "headersMs" | "requestMs">): number {
  return Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
}

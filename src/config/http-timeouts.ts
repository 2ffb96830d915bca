// How long the HTTP server waits for a client, and how long shutdown waits for in-flight requests. Without these a
// client that sends its request slowly (one byte every few seconds) holds a connection for ever, and a kept-alive
// connection holds shutdown for the whole keep-alive timeout.

export interface HttpTimeouts {
  /** The request line and headers must have arrived within this long of the request's first byte. */
  headersMs: number;
  /** The whole request, headers and body, must have arrived within this long of its first byte (the body timeout). */
  requestMs: number;
  /**
   * A socket with no traffic either way for this long is closed. Longer than 15 s: long-lived responses send a
   * heartbeat every 15 s.
   */
  idleMs: number;
  /** A kept-alive connection waiting for its next request is closed after this long. */
  keepAliveMs: number;
  /** At shutdown, in-flight requests get this long to finish; then the connections still open are closed. */
  shutdownMs: number;
}

/** Long-lived responses (the order stream) send a heartbeat this often; an idle timeout must exceed it. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 60_000,
  // Fastify's default, kept: above the 60 s idle timeout common to load balancers, so they close first.
  keepAliveMs: 72_000,
  shutdownMs: 10_000,
};

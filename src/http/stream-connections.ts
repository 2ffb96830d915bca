// Long-lived responses are a resource: each holds a socket and a file descriptor until its client goes. This bounds
// them per replica (STREAM_MAX_CONNECTIONS: 503 beyond it) and per client address (STREAM_MAX_PER_IP: 429), and
// ends them all when the server starts closing, so they never hold a graceful shutdown.
import { StreamCapacityError, StreamClientLimitError } from "../orders/errors.ts";

export interface StreamLimits {
  maxConnections: number;
  maxPerIp: number;
}

export interface HeldStream {
  /** Ends the response now (its client reconnects, here or elsewhere). */
  end(): void;
}

export class StreamConnections {
  readonly #open = new Set<HeldStream>();
  readonly #perIp = new Map<string, number>();
  #closing = false;

  constructor(readonly limits: StreamLimits) {}

  get open(): number {
    return this.#open.size;
  }

  /** Counts a new stream from `ip`, or throws when a limit is reached; the returned function releases it. */
  acquire(ip: string, stream: HeldStream): () => void {
    if (this.#closing || this.#open.size >= this.limits.maxConnections)
      throw new StreamCapacityError(this.limits.maxConnections);
    const fromIp = this.#perIp.get(ip) ?? 0;
    if (fromIp >= this.limits.maxPerIp) throw new StreamClientLimitError(this.limits.maxPerIp);
    this.#open.add(stream);
    this.#perIp.set(ip, fromIp + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open.delete(stream);
      const left = (this.#perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.#perIp.set(ip, left);
      else this.#perIp.delete(ip);
    };
  }

  /** Refuses new streams and ends the open ones (shutdown). */
  endAll(): void {
    this.#closing = true;
    for (const stream of [...this.#open]) stream.end();
  }
}

// Long-lived responses are a resource: each holds a socket and a file descriptor until its client goes. This bounds
// them per replica (STREAM_MAX_CONNECTIONS: 503 beyond it) and per client (429 beyond it): per client address
// (STREAM_MAX_PER_IP), or, for a solver's stream (authenticated by its credentials), per solver
// (STREAM_MAX_PER_SOLVER), so solvers sharing an address (the devnet's, behind one balancer) do not take the
// address's streams. It ends them all when the server starts closing, so they never hold a graceful shutdown.
import { StreamCapacityError, StreamClientLimitError } from "../orders/errors.ts";

export interface StreamLimits {
  maxConnections: number;
  maxPerIp: number;
  maxPerSolver: number;
}

export interface HeldStream {
  /** Ends the response now (its client reconnects, here or elsewhere). */
  end(): void;
}

/**
 * Who a stream counts against: its client's address, the integrator whose API key opened it (STREAM_MAX_PER_IP too),
 * or the solver whose credentials opened it.
 */
export type StreamClient = { ip: string } | { integrator: string } | { solverId: string };

export class StreamConnections {
  readonly #open = new Set<HeldStream>();
  readonly #perClient = new Map<string, number>();
  #closing = false;

  constructor(readonly limits: StreamLimits) {}

  get open(): number {
    return this.#open.size;
  }

  /** Counts a new stream of `client`, or throws when a limit is reached; the returned function releases it. */
  acquire(client: StreamClient, stream: HeldStream): () => void {
    if (this.#closing || this.#open.size >= this.limits.maxConnections)
      throw new StreamCapacityError(this.limits.maxConnections);
    const [key, limit] =
      "solverId" in client
        ? [`solver:${client.solverId}`, this.limits.maxPerSolver]
        : "integrator" in client
          ? [`key:${client.integrator}`, this.limits.maxPerIp]
          : [`ip:${client.ip}`, this.limits.maxPerIp];
    const held = this.#perClient.get(key) ?? 0;
    if (held >= limit) throw new StreamClientLimitError(limit);
    this.#open.add(stream);
    this.#perClient.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open.delete(stream);
      const left = (this.#perClient.get(key) ?? 1) - 1;
      if (left > 0) this.#perClient.set(key, left);
      else this.#perClient.delete(key);
    };
  }

  /** Refuses new streams and ends the open ones (shutdown). */
  endAll(): void {
    this.#closing = true;
    for (const stream of [...this.#open]) stream.end();
  }
}

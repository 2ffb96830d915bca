// Load shedding of /quote: a round fans out to every solver and holds its request until they answer, so past a
// number of rounds in flight (or while the event loop lags) more rounds only queue up and make every answer late.
// Those are refused at once (503 OVERLOADED with Retry-After) for the client to retry here later or on another
// replica; reads never pass through here and keep being served.
import { OverloadedError } from "./errors.ts";

export interface QuoteAdmissionOptions {
  /** Rounds in flight at most on this replica (QUOTE_MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Event-loop delay beyond which rounds are shed, in ms (SHED_EVENT_LOOP_DELAY_MS; 0: never). */
  maxEventLoopDelayMs: number;
}

export class QuoteAdmission {
  #inFlight = 0;
  #eventLoopDelay: () => number = () => 0;

  constructor(readonly options: QuoteAdmissionOptions) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Where the current event-loop delay is read (the public server's @fastify/under-pressure sampler). */
  measureLagWith(eventLoopDelayMs: () => number): void {
    this.#eventLoopDelay = eventLoopDelayMs;
  }

  /** Takes a slot for one round, or throws OverloadedError; the returned function releases it (once). */
  admit(): () => void {
    if (this.#inFlight >= this.options.maxInFlight) throw new OverloadedError("quote_rounds");
    const { maxEventLoopDelayMs } = this.options;
    if (maxEventLoopDelayMs > 0 && this.#eventLoopDelay() > maxEventLoopDelayMs)
      throw new OverloadedError("event_loop_lag");
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
    };
  }

  /** Runs one round under a slot. */
  async run<T>(round: () => Promise<T>): Promise<T> {
    const release = this.admit();
    try {
      return await round();
    } finally {
      release();
    }
  }
}

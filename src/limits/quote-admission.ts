// Load shedding of /quote: a round fans out to every solver and holds its request until they answer, so past a
// number of rounds in flight (or while the event loop lags) more rounds only queue up and make every answer late.
// Those are refused at once (503 OVERLOADED with Retry-After) for the client to retry here later or on another
// replica; reads never pass through here and keep being served. Shedding is told once per episode (a warning when it
// starts, a line with how many rounds it refused when a round is admitted again), not one error per refusal.
import type { Logger } from "../logger.ts";
import { OverloadedError, type OverloadReason } from "./errors.ts";

export interface QuoteAdmissionOptions {
  /** Rounds in flight at most on this replica (QUOTE_MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Event-loop delay beyond which rounds are shed, in ms (SHED_EVENT_LOOP_DELAY_MS; 0: never). */
  maxEventLoopDelayMs: number;
  /** Where shedding episodes are told (none: silent). */
  logger?: Logger;
}

export class QuoteAdmission {
  #inFlight = 0;
  #eventLoopDelay: () => number = () => 0;
  /** The shedding episode in progress: since when (ms), why it began, how many rounds it refused. */
  #shedding: { since: number; reason: OverloadReason; refused: number } | undefined;

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
    if (this.#inFlight >= this.options.maxInFlight) throw this.#shed("quote_rounds");
    const { maxEventLoopDelayMs } = this.options;
    if (maxEventLoopDelayMs > 0 && this.#eventLoopDelay() > maxEventLoopDelayMs)
      throw this.#shed("event_loop_lag");
    if (this.#shedding) {
      const { since, reason, refused } = this.#shedding;
      this.#shedding = undefined;
      this.options.logger?.info(
        { reason, refused, ms: Date.now() - since },
        "admitting /quote rounds again after shedding",
      );
    }
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
    };
  }

  #shed(reason: OverloadReason): OverloadedError {
    if (this.#shedding) this.#shedding.refused += 1;
    else {
      this.#shedding = { since: Date.now(), reason, refused: 1 };
      this.options.logger?.warn(
        { reason, inFlight: this.#inFlight, maxInFlight: this.options.maxInFlight },
        "shedding /quote rounds: answering 503 OVERLOADED until the load falls",
      );
    }
    return new OverloadedError(reason);
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

// The stored quote a POST /order names. POST /quote stores its round after answering, so a quote may be
// submitted before it is stored: in this process the lookup waits for the pending write (a round kept through a
// database outage is written at once, or the lookup fails as the database does: 503, never "unknown"); a quote
// answered by another replica moments ago (by its deadline) is looked for again, with backoff, for a short grace
// period before it is called unknown.
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../clock.ts";
import type { QuoteRepository, StoredQuote } from "./repository.ts";

export type { StoredQuote };

import type { QuoteRoundWriter } from "./round-writer.ts";

/** Far longer than storing a round takes (one transaction); only unknown ids of fresh-looking quotes wait for it. */
export const QUOTE_STORE_GRACE_MS = 1000;
const FIRST_RETRY_MS = 10;

export interface QuoteLookupOptions {
  repository: Pick<QuoteRepository, "findQuote">;
  pending: Pick<QuoteRoundWriter, "settled">;
  clock: Clock;
  quoteLifetimeSeconds: number;
  graceMs?: number;
}

export class QuoteLookup {
  constructor(private readonly options: QuoteLookupOptions) {}

  /** `deadline` is the submitted quote's: it tells when the quote was issued, if it is genuine. */
  async find(quoteId: string, deadline: number): Promise<StoredQuote | undefined> {
    const { repository, pending } = this.options;
    await pending.settled(quoteId);
    const stored = await repository.findQuote(quoteId);
    if (stored) return stored;

    const graceLeftMs = Math.min(
      this.#graceMs,
      this.#latestIssueMs(deadline) + this.#graceMs - this.#nowMs(),
    );
    const giveUpAt = performance.now() + graceLeftMs;
    for (let delay = FIRST_RETRY_MS; ; delay *= 2) {
      const leftMs = giveUpAt - performance.now();
      if (leftMs <= 0) return undefined;
      // The sleep that reaches the end of the grace is the last: a timer may fire a fraction of a millisecond
      // early by performance.now(), and the loop must not then spin through sub-millisecond sleeps and lookups.
      const last = delay >= leftMs;
      await sleep(last ? leftMs : delay);
      const found = await repository.findQuote(quoteId);
      if (found || last) return found;
    }
  }

  get #graceMs(): number {
    return this.options.graceMs ?? QUOTE_STORE_GRACE_MS;
  }

  /** The latest a genuine quote with this deadline was issued: deadlines are whole seconds, rounded down. */
  #latestIssueMs(deadline: number): number {
    return (deadline - this.options.quoteLifetimeSeconds + 1) * 1000;
  }

  #nowMs(): number {
    return this.options.clock.now().getTime();
  }
}

// Writes answered /quote rounds after their answer, in batches. POST /quote answers first, so the round's
// database round trip is off the answer's path; rounds answered within a short window go into one statement, and
// the database's work lands away from the moment right after an answer, when the same client's next request
// tends to start (on the swap bench, writing at once cost ~1 ms of /quote's p50). Until a round is stored, a
// POST /order in this process for one of its quote ids (or GET /auctions for its request id) flushes its batch and
// waits for it; shutdown flushes and waits for everything before the database closes.
//
// A round whose write fails because the database is out of reach is kept in memory, not lost: its quotes were handed
// out and may still become orders. Kept rounds are written again with backoff (new rounds join them without an
// attempt of their own) until the database takes them or their quotes expire; a POST /order for a kept quote tries
// at once, and answers 503 (retry) while the database is still out. Memory is bounded (the oldest rounds, closest to
// expiry, go first), and an outage logs one warning when it starts and one line when it ends, whatever the number of
// retries. A round that fails for any other reason is written alone, so one bad round cannot lose the others, and
// is dropped with an error.
import type { Clock } from "../clock.ts";
import { asDatabaseUnavailable, DatabaseUnavailableError } from "../db/unavailable.ts";
import type { Logger } from "../logger.ts";
import type { QuoteRound } from "./quote-round-statement.ts";

/** Rounds answered this close together are stored in one statement. */
export const ROUND_BATCH_WINDOW_MS = 20;

/** Kept rounds are written again after this long, doubling after each failed attempt up to the maximum. */
export const DEFAULT_RETRY_BACKOFF = { firstMs: 200, maxMs: 5000 };

/** Rounds kept during an outage at most; beyond it the oldest are dropped. */
export const DEFAULT_MAX_KEPT_ROUNDS = 10_000;

/** Kept rounds written per statement when the database is back. */
const RETRY_STATEMENT_ROUNDS = 200;

export interface QuoteRoundWriterOptions {
  /** Stores the rounds in one statement, all or nothing. */
  save: (rounds: readonly QuoteRound[]) => Promise<void>;
  logger: Pick<Logger, "error" | "warn" | "info">;
  /** Tells when a kept round's quotes have expired. */
  clock: Clock;
  batchWindowMs?: number;
  retryBackoff?: { firstMs: number; maxMs: number };
  maxKeptRounds?: number;
}

interface Batch {
  rounds: QuoteRound[];
  timer: NodeJS.Timeout | undefined;
  /** Set once the batch is being written; settles when it is stored, kept or dropped (never rejects). */
  written: Promise<void> | undefined;
}

/** What happened to kept rounds since the outage began: reported once it ends. */
interface Outage {
  startedAt: Date;
  stored: number;
  expired: number;
  overflowed: number;
  failed: number;
}

export class QuoteRoundWriter {
  #open: Batch | undefined;
  readonly #batchByQuoteId = new Map<string, Batch>();
  readonly #batchByRequestId = new Map<string, Batch>();
  readonly #unsettled = new Set<Batch>();

  /** Rounds whose write failed while the database was out of reach, oldest first, by request id. */
  readonly #kept = new Map<string, QuoteRound>();
  /** The request id of each kept round's quote ids. */
  readonly #keptByQuoteId = new Map<string, string>();
  #outage: Outage | undefined;
  /** Why the last attempt to write kept rounds failed. */
  #lastFailure: unknown;
  #retryDelayMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #retrying: Promise<void> | undefined;

  constructor(private readonly options: QuoteRoundWriterOptions) {
    this.#retryDelayMs = this.#backoff.firstMs;
  }

  /** Queues a round for the current batch; the batch is written when its window ends. */
  write(round: QuoteRound): void {
    let batch = this.#open;
    if (!batch) {
      const opened: Batch = { rounds: [], timer: undefined, written: undefined };
      opened.timer = setTimeout(
        () => this.#flush(opened),
        this.options.batchWindowMs ?? ROUND_BATCH_WINDOW_MS,
      );
      batch = opened;
      this.#open = batch;
      this.#unsettled.add(batch);
    }
    batch.rounds.push(round);
    for (const entry of round.entries) this.#batchByQuoteId.set(entry.quoteId, batch);
    this.#batchByRequestId.set(round.request.requestId, batch);
  }

  /**
   * Settles once the round holding this quote id (if one is pending) is stored or dropped; at once if none. A round
   * kept for a database outage is written at once: if the database still refuses it, this rejects with a
   * DatabaseUnavailableError (the caller answers 503: retry, the quote is not lost).
   */
  async settled(quoteId: string): Promise<void> {
    const batch = this.#batchByQuoteId.get(quoteId);
    if (batch) await this.#flush(batch);
    await this.#storedIfKept(() => this.#keptByQuoteId.has(quoteId));
  }

  /** As settled(), for the round of a request id (GET /auctions), even a round without entries. */
  async settledRound(requestId: string): Promise<void> {
    const batch = this.#batchByRequestId.get(requestId);
    if (batch) await this.#flush(batch);
    await this.#storedIfKept(() => this.#kept.has(requestId));
  }

  /** Rounds not yet stored (queued, being written, or kept for the database). */
  get pending(): number {
    let rounds = this.#kept.size;
    for (const batch of this.#unsettled) rounds += batch.rounds.length;
    return rounds;
  }

  /** Rounds kept because the database was out of reach when they were written. */
  get kept(): number {
    return this.#kept.size;
  }

  /**
   * Writes whatever is queued or kept now and settles once every round so far is stored or given up: kept rounds
   * get one more attempt; those the database still refuses are lost, and logged.
   */
  async drain(): Promise<void> {
    await Promise.all([...this.#unsettled].map((batch) => this.#flush(batch)));
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#kept.size === 0) return;
    await this.#retryKept();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#kept.size === 0) return;
    this.options.logger.error(
      { err: this.#lastFailure, rounds: this.#kept.size, requestIds: [...this.#kept.keys()].slice(0, 20) },
      "quote rounds lost at shutdown: the database did not take them; their quotes cannot become orders",
    );
    this.#kept.clear();
    this.#keptByQuoteId.clear();
    this.#outage = undefined;
  }

  #flush(batch: Batch): Promise<void> {
    if (batch.written) return batch.written;
    clearTimeout(batch.timer);
    if (this.#open === batch) this.#open = undefined;
    batch.written = this.#store(batch.rounds).finally(() => {
      this.#unsettled.delete(batch);
      for (const round of batch.rounds) {
        const { requestId } = round.request;
        if (this.#batchByRequestId.get(requestId) === batch) this.#batchByRequestId.delete(requestId);
        for (const entry of round.entries) {
          if (this.#batchByQuoteId.get(entry.quoteId) === batch) this.#batchByQuoteId.delete(entry.quoteId);
        }
      }
    });
    return batch.written;
  }

  /** One statement for the batch; during an outage it joins the kept rounds instead (retried with them). */
  async #store(rounds: readonly QuoteRound[]): Promise<void> {
    if (this.#outage) {
      this.#keep(rounds, undefined);
      return;
    }
    try {
      await this.options.save(rounds);
    } catch (error) {
      if (isOutage(error)) return this.#keep(rounds, error);
      await this.#storeOneByOne(rounds);
    }
  }

  /** Each round alone, after its batch failed for another reason than an outage: only a bad round is lost. */
  async #storeOneByOne(rounds: readonly QuoteRound[]): Promise<void> {
    for (const round of rounds) {
      try {
        await this.options.save([round]);
      } catch (error) {
        if (isOutage(error)) this.#keep([round], error);
        else this.#dropFailed(round, error);
      }
    }
  }

  /** Keeps rounds the database could not take, starting an outage (its one warning) if none is under way. */
  #keep(rounds: readonly QuoteRound[], error: unknown): void {
    if (error !== undefined) this.#lastFailure = error;
    if (!this.#outage) {
      this.#outage = { startedAt: this.options.clock.now(), stored: 0, expired: 0, overflowed: 0, failed: 0 };
      this.options.logger.warn(
        { err: error, rounds: rounds.length },
        "quote rounds not stored: the database is unavailable; keeping them and retrying until it is back or their quotes expire",
      );
    }
    for (const round of rounds) {
      this.#kept.set(round.request.requestId, round);
      for (const entry of round.entries) this.#keptByQuoteId.set(entry.quoteId, round.request.requestId);
    }
    const max = this.options.maxKeptRounds ?? DEFAULT_MAX_KEPT_ROUNDS;
    for (const requestId of this.#kept.keys()) {
      if (this.#kept.size <= max) break;
      this.#forget(requestId);
      this.#outage.overflowed += 1;
    }
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#retryTimer || this.#retrying || this.#kept.size === 0) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#retryKept();
    }, this.#retryDelayMs);
    // A pending retry never keeps the process alive: shutdown drains the kept rounds itself.
    this.#retryTimer.unref();
  }

  /** One attempt at writing every kept round (joined if one is running); the next is scheduled if some remain. */
  #retryKept(): Promise<void> {
    this.#retrying ??= this.#storeKept().finally(() => {
      this.#retrying = undefined;
      this.#scheduleRetry();
    });
    return this.#retrying;
  }

  async #storeKept(): Promise<void> {
    this.#dropExpired();
    while (this.#kept.size > 0) {
      const chunk = [...this.#kept.values()].slice(0, RETRY_STATEMENT_ROUNDS);
      try {
        await this.options.save(chunk);
        this.#stored(chunk);
      } catch (error) {
        if (isOutage(error)) return this.#stillOut(error);
        // Not the outage: find the bad round(s) and keep going with the others.
        for (const round of chunk) {
          try {
            await this.options.save([round]);
            this.#stored([round]);
          } catch (alone) {
            if (isOutage(alone)) return this.#stillOut(alone);
            this.#forget(round.request.requestId);
            if (this.#outage) this.#outage.failed += 1;
            this.#dropFailed(round, alone);
          }
        }
      }
    }
    this.#outageEnded();
  }

  #stored(rounds: readonly QuoteRound[]): void {
    for (const round of rounds) this.#forget(round.request.requestId);
    if (this.#outage) this.#outage.stored += rounds.length;
  }

  #stillOut(error: unknown): void {
    this.#lastFailure = error;
    this.#retryDelayMs = Math.min(this.#retryDelayMs * 2, this.#backoff.maxMs);
  }

  /** Kept rounds whose quotes have all expired can no longer become orders: not worth storing any more. */
  #dropExpired(): void {
    const nowSeconds = Math.floor(this.options.clock.now().getTime() / 1000);
    for (const [requestId, round] of this.#kept) {
      if (round.entries.some((entry) => entry.deadline > nowSeconds)) continue;
      this.#forget(requestId);
      if (this.#outage) this.#outage.expired += 1;
    }
  }

  #outageEnded(): void {
    const outage = this.#outage;
    this.#outage = undefined;
    this.#retryDelayMs = this.#backoff.firstMs;
    if (!outage) return;
    const { stored, expired, overflowed, failed } = outage;
    const facts = {
      stored,
      expired,
      overflowed,
      failed,
      outageMs: this.options.clock.now().getTime() - outage.startedAt.getTime(),
    };
    if (expired + overflowed > 0) {
      this.options.logger.warn(
        facts,
        "quote rounds stored after the database came back; some were dropped (expired or over the memory bound), their quotes cannot become orders",
      );
    } else this.options.logger.info(facts, "quote rounds stored after the database came back");
  }

  /** A kept round the caller needs now: one attempt at once; still kept afterwards means the database is out. */
  async #storedIfKept(isKept: () => boolean): Promise<void> {
    if (!isKept()) return;
    await this.#retryKept();
    if (isKept()) {
      throw new DatabaseUnavailableError("quote round not stored yet: the database is unavailable", {
        cause: this.#lastFailure,
      });
    }
  }

  #forget(requestId: string): void {
    const round = this.#kept.get(requestId);
    if (!round) return;
    this.#kept.delete(requestId);
    for (const entry of round.entries) {
      if (this.#keptByQuoteId.get(entry.quoteId) === requestId) this.#keptByQuoteId.delete(entry.quoteId);
    }
  }

  #dropFailed(round: QuoteRound, error: unknown): void {
    this.options.logger.error(
      { err: error, requestId: round.request.requestId },
      "quote round not stored: its quotes cannot become orders",
    );
  }

  get #backoff() {
    return this.options.retryBackoff ?? DEFAULT_RETRY_BACKOFF;
  }
}

/** A failure of the database being out of reach (it passes), not of the rounds themselves. */
function isOutage(error: unknown): boolean {
  return asDatabaseUnavailable(error) !== undefined;
}

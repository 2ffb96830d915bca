// Writes answered /quote rounds after their answer, in batches. POST /quote answers first, so the round's
// database round trip is off the answer's path; rounds answered within a short window go into one statement, and
// the database's work lands away from the moment right after an answer, when the same client's next request
// tends to start (on the swap bench, writing at once cost ~1 ms of /quote's p50). Until a round is stored, a
// POST /order in this process for one of its quote ids (or GET /auctions for its request id) flushes its batch and
// waits for it; shutdown flushes and
// waits for everything before the database closes.
import type { Logger } from "../logger.ts";
import type { QuoteRound } from "./quote-round-statement.ts";

/** Rounds answered this close together are stored in one statement. */
export const ROUND_BATCH_WINDOW_MS = 20;

export interface QuoteRoundWriterOptions {
  /** Stores the rounds in one statement, all or nothing. */
  save: (rounds: readonly QuoteRound[]) => Promise<void>;
  logger: Pick<Logger, "error">;
  batchWindowMs?: number;
}

interface Batch {
  rounds: QuoteRound[];
  timer: NodeJS.Timeout | undefined;
  /** Set once the batch is being written; settles when it is stored or has failed (never rejects). */
  written: Promise<void> | undefined;
}

export class QuoteRoundWriter {
  #open: Batch | undefined;
  readonly #batchByQuoteId = new Map<string, Batch>();
  readonly #batchByRequestId = new Map<string, Batch>();
  readonly #unsettled = new Set<Batch>();

  constructor(private readonly options: QuoteRoundWriterOptions) {}

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

  /** Settles once the round holding this quote id (if one is pending) is stored or has failed; at once if none. */
  async settled(quoteId: string): Promise<void> {
    const batch = this.#batchByQuoteId.get(quoteId);
    if (batch) await this.#flush(batch);
  }

  /** Settles once the round of this request id (if one is pending) is stored or has failed; at once if none. */
  async settledRound(requestId: string): Promise<void> {
    const batch = this.#batchByRequestId.get(requestId);
    if (batch) await this.#flush(batch);
  }

  /** Rounds not yet stored (queued or being written). */
  get pending(): number {
    let rounds = 0;
    for (const batch of this.#unsettled) rounds += batch.rounds.length;
    return rounds;
  }

  /** Writes whatever is queued now and settles once every round queued so far is stored or has failed. */
  async drain(): Promise<void> {
    await Promise.all([...this.#unsettled].map((batch) => this.#flush(batch)));
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

  /** One statement for the batch; if it fails, each round alone, so one bad round cannot lose the others. */
  async #store(rounds: readonly QuoteRound[]): Promise<void> {
    try {
      await this.options.save(rounds);
      return;
    } catch (error) {
      if (rounds.length === 1) return this.#failed(rounds[0]!, error);
    }
    for (const round of rounds) {
      await this.options.save([round]).catch((error: unknown) => this.#failed(round, error));
    }
  }

  #failed(round: QuoteRound, error: unknown): void {
    this.options.logger.error(
      { err: error, requestId: round.request.requestId },
      "quote round not stored: its quotes cannot become orders",
    );
  }
}

// /quote rounds answered but not yet stored. POST /quote answers first and stores its round right after, so the
// round's database round trip is off the answer's path; until that write settles, a POST /order in this process
// for one of the round's quote ids waits for it, and shutdown waits for all of them before the database closes.

export class PendingQuoteRounds {
  readonly #byQuoteId = new Map<string, Promise<void>>();
  readonly #writes = new Set<Promise<void>>();

  /** Registers a round's write under each of its quote ids until it settles; `write` must not reject. */
  track(quoteIds: readonly string[], write: Promise<void>): void {
    for (const quoteId of quoteIds) this.#byQuoteId.set(quoteId, write);
    this.#writes.add(write);
    void write.finally(() => {
      this.#writes.delete(write);
      for (const quoteId of quoteIds) {
        if (this.#byQuoteId.get(quoteId) === write) this.#byQuoteId.delete(quoteId);
      }
    });
  }

  /** Settles once the pending write of that quote id (if any) has; at once when there is none. */
  async settled(quoteId: string): Promise<void> {
    await this.#byQuoteId.get(quoteId);
  }

  /** How many writes have not settled yet. */
  get size(): number {
    return this.#writes.size;
  }

  /** Settles once every write registered so far has. */
  async drain(): Promise<void> {
    await Promise.all([...this.#writes]);
  }
}

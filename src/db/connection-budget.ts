// A share of the database's connections for one kind of work: at most `limit` of its reads run at once, the others
// wait their turn in order. The order streams read through one (STREAM_DB_CONNECTIONS), so however many streams open
// at once, the request paths keep the rest of the pool.
export class ConnectionBudget {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a budget of ${limit} connections`);
  }

  /** Reads waiting for their turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `read` once fewer than `limit` reads of this budget are running. */
  async run<T>(read: () => Promise<T>): Promise<T> {
    if (this.#running < this.limit) this.#running += 1;
    // The finishing read hands its turn over: the count stays.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await read();
    } finally {
      const next = this.#waiting.shift();
      // The next read starts after the event loop's pending I/O, not in this read's microtasks: back to back, reads
      // of an in-process database (PGlite runs each on this thread) would keep requests' sockets unread meanwhile.
      if (next) setImmediate(next);
      else this.#running -= 1;
    }
  }
}

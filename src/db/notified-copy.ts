// A replica's copy of something every writer announces with NOTIFY on one channel (in the writing transaction, so the
// notification comes with the commit): read at start, re-read at each notification and whenever the listening
// connection comes back. `fresh` says whether the copy reflects every change notified so far: false while a re-read is
// pending or failed, or while the listener is down (notifications sent meanwhile are lost). Whoever reads the copy
// reads the table itself when it is not fresh, never a copy that may be stale.
import type { Logger } from "../logger.ts";
import type { Database, Listening } from "./client.ts";

export class NotifiedCopy<T> {
  #value: T | undefined;
  #listening: Listening | undefined;
  #listenerUp = false;
  #fresh = false;
  /** Bumped by every re-read started: only the newest one's answer is kept. */
  #reads = 0;

  constructor(
    private readonly database: Database,
    private readonly channel: string,
    private readonly read: () => Promise<T>,
    private readonly logger: Logger,
    /** What is copied, for the log line of a failed re-read ("api keys"). */
    private readonly what: string,
  ) {}

  async start(): Promise<void> {
    this.#listening = await this.database.listen(this.channel, {
      onNotify: () => void this.reload(),
      onConnected: () => {
        this.#listenerUp = true;
        void this.reload();
      },
      onDisconnected: () => {
        this.#listenerUp = false;
        this.#fresh = false;
      },
    });
    // PGlite runs in this process: its listener is up once listen() resolves and never drops.
    if (this.database.kind === "pglite") this.#listenerUp = true;
    await this.reload();
  }

  async stop(): Promise<void> {
    await this.#listening?.stop();
    this.#listening = undefined;
    this.#listenerUp = false;
    this.#fresh = false;
  }

  /** The copy when it reflects every notified change; undefined otherwise (read the table instead). */
  get fresh(): { value: T } | undefined {
    return this.#fresh ? { value: this.#value as T } : undefined;
  }

  /** Re-reads the copy (a change was notified, or written by this process). */
  async reload(): Promise<void> {
    const read = ++this.#reads;
    this.#fresh = false;
    try {
      const value = await this.read();
      if (read !== this.#reads) return;
      this.#value = value;
      this.#fresh = this.#listenerUp;
    } catch (error) {
      // Until a re-read succeeds, readers go to the table.
      this.logger.warn(
        { err: error },
        `${this.what}: re-reading failed; reading the table per request meanwhile`,
      );
    }
  }
}

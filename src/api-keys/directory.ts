// The live API keys, as each replica answers requests from them: kept in memory and re-read whenever the table
// changes. Every write fires the table's NOTIFY (migration 0013), so a key revoked by any process is refused by every
// replica as soon as the notification arrives: from then until the re-read is in, and whenever the listening
// connection is down, a key is looked up in the table itself, never in a copy that may be stale.
import type { Database, Listening } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { ApiKeyRepository, LiveApiKey } from "./repository.ts";
import { hashApiKey } from "./secret.ts";

export const API_KEYS_CHANNEL = "api_keys";

export class ApiKeyDirectory {
  #byHash = new Map<string, LiveApiKey>();
  #listening: Listening | undefined;
  #listenerUp = false;
  /** The map reflects every change notified so far (no re-read pending, the listener up). */
  #fresh = false;
  /** Bumped by every re-read started: only the newest one's answer is kept. */
  #reads = 0;

  constructor(
    private readonly database: Database,
    private readonly repository: ApiKeyRepository,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.#listening = await this.database.listen(API_KEYS_CHANNEL, {
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

  /** The live key `key` is, or undefined when it is unknown or revoked. */
  async find(key: string): Promise<LiveApiKey | undefined> {
    const hash = hashApiKey(key);
    if (this.#fresh) return this.#byHash.get(hash);
    return this.repository.liveByHash(hash);
  }

  /** Re-reads the live keys (a change was notified, or written by this process). */
  async reload(): Promise<void> {
    const read = ++this.#reads;
    this.#fresh = false;
    try {
      const keys = await this.repository.live();
      if (read !== this.#reads) return;
      this.#byHash = new Map(keys.map((key) => [key.keyHash, key]));
      this.#fresh = this.#listenerUp;
    } catch (error) {
      // Until a re-read succeeds, every key is looked up in the table.
      this.logger.warn({ err: error }, "api keys: re-reading the keys failed; looking each one up meanwhile");
    }
  }
}

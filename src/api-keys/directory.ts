// The live API keys, as each replica answers requests from them: kept in memory and re-read whenever the table
// changes. Every write fires the table's NOTIFY (migration 0013), so a key revoked by any process is refused by every
// replica as soon as the notification arrives: from then until the re-read is in, and whenever the listening
// connection is down, a key is looked up in the table itself, never in a copy that may be stale.
import type { Database } from "../db/client.ts";
import { NotifiedCopy } from "../db/notified-copy.ts";
import type { Logger } from "../logger.ts";
import type { ApiKeyRepository, LiveApiKey } from "./repository.ts";
import { hashApiKey } from "./secret.ts";

export const API_KEYS_CHANNEL = "api_keys";

export class ApiKeyDirectory {
  readonly #byHash: NotifiedCopy<Map<string, LiveApiKey>>;

  constructor(
    database: Database,
    private readonly repository: ApiKeyRepository,
    logger: Logger,
  ) {
    this.#byHash = new NotifiedCopy(
      database,
      API_KEYS_CHANNEL,
      async () => new Map((await repository.live()).map((key) => [key.keyHash, key])),
      logger,
      "api keys",
    );
  }

  start(): Promise<void> {
    return this.#byHash.start();
  }

  stop(): Promise<void> {
    return this.#byHash.stop();
  }

  /** The live key `key` is, or undefined when it is unknown or revoked. */
  async find(key: string): Promise<LiveApiKey | undefined> {
    const hash = hashApiKey(key);
    const copy = this.#byHash.fresh;
    if (copy) return copy.value.get(hash);
    return this.repository.liveByHash(hash);
  }

  /** Re-reads the live keys (a change was notified, or written by this process). */
  reload(): Promise<void> {
    return this.#byHash.reload();
  }
}

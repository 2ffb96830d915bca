// The engine's position as the serving routes read it on every replica: kept in memory and re-read whenever a step,
// a rewind or a reset commits (each notifies POINTS_ENGINE_POSITION_CHANNEL in its transaction), so a request for the
// own points does not read the position itself. Whenever the listening connection is down, or a re-read is pending
// or failed, the position is read from the table at each request, never taken from a copy that may be stale.
import type { Database, Listening } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { type EnginePosition, POINTS_ENGINE_POSITION_CHANNEL, readPosition } from "./store/position.ts";

export class EnginePositionWatch {
  #position: EnginePosition | undefined;
  #listening: Listening | undefined;
  #listenerUp = false;
  /** The kept position reflects every commit notified so far (no re-read pending, the listener up). */
  #fresh = false;
  /** Bumped by every re-read started: only the newest one's answer is kept. */
  #reads = 0;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.#listening = await this.database.listen(POINTS_ENGINE_POSITION_CHANNEL, {
      onNotify: () => void this.#reload(),
      onConnected: () => {
        this.#listenerUp = true;
        void this.#reload();
      },
      onDisconnected: () => {
        this.#listenerUp = false;
        this.#fresh = false;
      },
    });
    // PGlite runs in this process: its listener is up once listen() resolves and never drops.
    if (this.database.kind === "pglite") this.#listenerUp = true;
    await this.#reload();
  }

  async stop(): Promise<void> {
    await this.#listening?.stop();
    this.#listening = undefined;
    this.#listenerUp = false;
    this.#fresh = false;
  }

  /** The engine's committed position; undefined before its first step. */
  async current(): Promise<EnginePosition | undefined> {
    if (this.#fresh) return this.#position;
    return readPosition(this.database);
  }

  async #reload(): Promise<void> {
    const read = ++this.#reads;
    this.#fresh = false;
    try {
      const position = await readPosition(this.database);
      if (read !== this.#reads) return;
      this.#position = position;
      this.#fresh = this.#listenerUp;
    } catch (error) {
      // Until a re-read succeeds, every request reads the position itself.
      this.logger.warn(
        { err: error },
        "points engine: re-reading its position failed; reading it per request meanwhile",
      );
    }
  }
}

// The engine's position as the serving routes read it on every replica: kept in memory and re-read whenever a step,
// a rewind or a reset commits (each notifies POINTS_ENGINE_POSITION_CHANNEL in its transaction), so a request for the
// own points does not read the position itself. Whenever that copy may be stale (the listening connection down, a
// re-read pending or failed) the position is read from the table at each request.
import type { Database } from "../db/client.ts";
import { NotifiedCopy } from "../db/notified-copy.ts";
import type { Logger } from "../logger.ts";
import { type EnginePosition, POINTS_ENGINE_POSITION_CHANNEL, readPosition } from "./store/position.ts";

export class EnginePositionWatch {
  readonly #position: NotifiedCopy<EnginePosition | undefined>;

  constructor(
    private readonly database: Database,
    logger: Logger,
  ) {
    this.#position = new NotifiedCopy(
      database,
      POINTS_ENGINE_POSITION_CHANNEL,
      () => readPosition(database),
      logger,
      "points engine position",
    );
  }

  start(): Promise<void> {
    return this.#position.start();
  }

  stop(): Promise<void> {
    return this.#position.stop();
  }

  /** The engine's committed position; undefined before its first step. */
  async current(): Promise<EnginePosition | undefined> {
    const copy = this.#position.fresh;
    return copy ? copy.value : readPosition(this.database);
  }
}

// One reader of the order log per replica, fanning each change out to the streams that follow its order. Woken by
// this process's own writes (OrderEvents, after commit), by PostgreSQL NOTIFY from every other writer (another
// replica, the indexer elsewhere), and, while the listening connection is down, by a poll; each wake reads the log
// after the last id it delivered, so a notification lost while the connection was down loses no change. Ids are in
// commit order (tables.ts), so reading "after the last id" never skips a change that commits late.

import type { Database, Listening } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import { LOG_PAGE_SIZE, type LoggedChange, queryOf, readChangesAfter, readLogBounds } from "./event-log.ts";
import type { OrderEvents } from "./order-events.ts";
import { changeKeys } from "./stream-filter.ts";

/** The NOTIFY channel the order_events trigger signals (migration 0003). */
export const ORDER_EVENTS_CHANNEL = "order_events";
const POLL_WHILE_UNLISTENED_MS = 1000;

export interface FeedSubscriber {
  /** The index keys (stream-filter.ts `keys()`) of the changes it may want; it checks its whole filter itself. */
  readonly keys: readonly string[];
  offer(change: LoggedChange): void;
  /** The stored orders were all deleted (a chain reset): the subscriber ends, and its client starts over. */
  reset(): void;
}

export class OrderFeed {
  #position: bigint | undefined;
  readonly #byKey = new Map<string, Set<FeedSubscriber>>();
  readonly #all = new Set<FeedSubscriber>();
  #draining: Promise<void> | undefined;
  #again = false;
  #listening: Listening | undefined;
  #listenerUp = false;
  /** The last read failed: the poll reads again. */
  #readFailed = false;
  #poll: NodeJS.Timeout | undefined;
  #stopEvents: (() => void) | undefined;
  #stopped = true;

  constructor(
    private readonly database: Database,
    private readonly events: OrderEvents,
    private readonly logger: Logger,
  ) {}

  /** The id of the newest change fanned out. */
  get position(): bigint {
    if (this.#position === undefined) throw new Error("the order feed has not started");
    return this.#position;
  }

  get subscribers(): number {
    return this.#all.size;
  }

  /**
   * How long the oldest change in the log that this feed has not fanned out yet has waited, in seconds: 0 when it
   * is caught up (or not running). A feed whose reads fail, or whose wakes stop, grows it; the lag gauge reads it.
   */
  async lagSeconds(): Promise<number> {
    if (this.#stopped || this.#position === undefined) return 0;
    const [row] = await this.database.query<{ lag: number | string | null }>(
      "select extract(epoch from (clock_timestamp() - recorded_at))::float8 as lag from order_events " +
        "where id > $1 order by id limit 1",
      [this.#position.toString()],
      { name: "sluice_order_feed_lag" },
    );
    return row?.lag == null ? 0 : Math.max(0, Number(row.lag));
  }

  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#position = (await readLogBounds(queryOf(this.database))).lastId;
    this.#stopEvents = this.events.subscribe((event) => {
      if (event.kind === "reset") this.#reset();
      else this.wake();
    });
    this.#listening = await this.database.listen(ORDER_EVENTS_CHANNEL, {
      onNotify: () => this.wake(),
      onConnected: () => {
        this.#listenerUp = true;
        // Whatever committed while it was down was not notified: read it now.
        this.wake();
      },
      onDisconnected: () => {
        this.#listenerUp = false;
      },
    });
    this.#poll = setInterval(() => {
      if (!this.#listenerUp || this.#readFailed) this.wake();
    }, POLL_WHILE_UNLISTENED_MS);
    this.#poll.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    this.#stopEvents?.();
    await this.#listening?.stop();
    await this.#draining;
  }

  /** Offers `subscriber` every change read from now on that has one of its keys; returns the unsubscribe function. */
  subscribe(subscriber: FeedSubscriber): () => void {
    this.#all.add(subscriber);
    for (const key of subscriber.keys) {
      const set = this.#byKey.get(key) ?? new Set();
      set.add(subscriber);
      this.#byKey.set(key, set);
    }
    return () => {
      this.#all.delete(subscriber);
      for (const key of subscriber.keys) {
        const set = this.#byKey.get(key);
        set?.delete(subscriber);
        if (set?.size === 0) this.#byKey.delete(key);
      }
    };
  }

  /** Reads the log after the position; a wake during a read reads once more after it. */
  wake(): void {
    if (this.#stopped || this.#position === undefined) return;
    if (this.#draining) {
      this.#again = true;
      return;
    }
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
    });
  }

  async #drain(): Promise<void> {
    try {
      do {
        this.#again = false;
        for (;;) {
          const changes = await readChangesAfter(queryOf(this.database), this.position, LOG_PAGE_SIZE);
          for (const change of changes) {
            this.#position = change.id;
            this.#fanOut(change);
          }
          if (changes.length < LOG_PAGE_SIZE) break;
        }
      } while (this.#again && !this.#stopped);
      this.#readFailed = false;
    } catch (error) {
      // The database is out of reach: the next wake (a write, a notification, the poll) reads again.
      this.logger[failureLevel(error, "warn")](
        { err: error },
        "order feed: reading the order log failed; retrying",
      );
      this.#readFailed = true;
    }
  }

  #fanOut(change: LoggedChange): void {
    const reached = new Set<FeedSubscriber>();
    for (const key of changeKeys(change.row)) for (const s of this.#byKey.get(key) ?? []) reached.add(s);
    for (const subscriber of reached) subscriber.offer(change);
  }

  #reset(): void {
    for (const subscriber of [...this.#all]) subscriber.reset();
    // The ids go on from the clock, which a reset keeps.
    this.wake();
  }
}

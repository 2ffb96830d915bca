// How many replicas serve the venue right now: each replica on a shared PostgreSQL database marks itself present
// every few seconds (by the database's clock) and counts the marks still fresh. The read class divides its limit by
// that count (replica-share.ts): a read costs less than a round trip to a shared counter would.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Database } from "../db/client.ts";
import { PeriodicJob } from "../db/periodic-job.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";

/** How often a replica marks itself present. */
export const PRESENCE_EVERY_MS = 2000;
/** A mark older than this no longer counts: three beats missed. */
const PRESENCE_FRESH_MS = 3 * PRESENCE_EVERY_MS;

const BEAT = `
  with mark as (
    insert into rate_limit_replicas (id, holder, seen_at) values ($1, $2, clock_timestamp())
    on conflict (id) do update set seen_at = excluded.seen_at
  )
  select count(*)::int + 1 as replicas from rate_limit_replicas
  where id <> $1 and seen_at > clock_timestamp() - make_interval(secs => $3::float8 / 1000)`;

/** Older marks are deleted by a beat now and then (a replica killed without stopping leaves one). */
const SWEEP = "delete from rate_limit_replicas where seen_at < clock_timestamp() - interval '10 minutes'";

export class ReplicaPresence {
  readonly id = randomUUID();
  #count = 1;
  #failing = false;
  #beats = 0;
  readonly #job: PeriodicJob<void>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    everyMs = PRESENCE_EVERY_MS,
  ) {
    this.#job = new PeriodicJob(everyMs, () => this.#beat());
  }

  /** The replicas counted at the last beat, this one included; the last known count while the database is out. */
  get count(): number {
    return this.#count;
  }

  start(): Promise<void> {
    this.#job.start();
    return this.#job.run();
  }

  async stop(): Promise<void> {
    await this.#job.stop();
    // Leaving at once: the others divide by one replica fewer from their next beat, not three beats later.
    await this.database.query("delete from rate_limit_replicas where id = $1", [this.id]).catch(() => {});
  }

  async #beat(): Promise<void> {
    try {
      const [row] = await this.database.query<{ replicas: number }>(
        BEAT,
        [this.id, `${hostname()}:${process.pid}`, PRESENCE_FRESH_MS],
        { name: "rate_limit_replica_beat" },
      );
      this.#count = Math.max(1, Number(row!.replicas));
      if ((this.#beats++ & 255) === 0) await this.database.query(SWEEP);
      if (this.#failing) this.logger.info({ replicas: this.#count }, "rate limits: replica count read again");
      this.#failing = false;
    } catch (error) {
      // Once per failure of its own; a database outage has its own one warning (outages.ts), so at debug then.
      if (!this.#failing)
        this.logger[failureLevel(error, "warn")](
          { err: error, replicas: this.#count },
          "rate limits: replica count not refreshed; keeping the last one",
        );
      this.#failing = true;
    }
  }
}

// Dataset generations: writers bump a counter in the same transaction as their data; readers keep
// in-memory caches tagged with the generation they were built from and look it up at most once per
// `maxAgeMs`, so a re-import on one replica reaches every replica's caches within that time.
import { sql } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Database, Db } from "./client.ts";

export type Dataset = "registry" | "points" | "discounts";

/** Increments the generation of a dataset; call it inside the transaction that changes the data. */
export async function bumpGeneration(tx: Pick<Db, "execute">, dataset: Dataset): Promise<void> {
  await tx.execute(sql`
    insert into dataset_generations (dataset, generation) values (${dataset}, 1)
    on conflict (dataset) do update set generation = dataset_generations.generation + 1`);
}

export async function readGeneration(database: Database, dataset: Dataset): Promise<number> {
  const rows = await database.query<{ generation: string | number }>(
    "select generation from dataset_generations where dataset = $1",
    [dataset],
  );
  return rows[0] ? Number(rows[0].generation) : 0;
}

/**
 * A value derived from a dataset, rebuilt when the dataset's generation changes. Concurrent callers share
 * one rebuild; the generation is re-read at most once per `maxAgeMs`. A writer in this process calls
 * `invalidate()` after its commit: every `get` that starts afterwards sees the write.
 */
export class GenerationCache<T> {
  #value: { generation: number; data: T } | undefined;
  #checkedAt = -Infinity;
  /** Bumped by `invalidate`: a refresh started before it can neither be joined nor mark the value fresh. */
  #epoch = 0;
  #pending: { epoch: number; promise: Promise<T> } | undefined;

  constructor(
    private readonly database: Database,
    private readonly dataset: Dataset,
    private readonly build: (generation: number) => Promise<T>,
    private readonly clock: Clock,
    private readonly maxAgeMs = 1000,
  ) {}

  /** The value `get` would answer at once (checked within `maxAgeMs`), or undefined when it must be read. */
  current(): T | undefined {
    if (!this.#value || this.clock.now().getTime() - this.#checkedAt >= this.maxAgeMs) return undefined;
    return this.#value.data;
  }

  async get(): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.#value && now - this.#checkedAt < this.maxAgeMs) return this.#value.data;
    if (this.#pending?.epoch === this.#epoch) return this.#pending.promise;
    const epoch = this.#epoch;
    const promise = this.#refresh(now, epoch).finally(() => {
      if (this.#pending?.promise === promise) this.#pending = undefined;
    });
    this.#pending = { epoch, promise };
    return promise;
  }

  /** Forgets the cached value: the next `get` re-reads the generation. */
  invalidate(): void {
    this.#epoch++;
    this.#checkedAt = -Infinity;
  }

  async #refresh(now: number, epoch: number): Promise<T> {
    const generation = await readGeneration(this.database, this.dataset);
    let value = this.#value;
    if (!value || value.generation !== generation) {
      value = { generation, data: await this.build(generation) };
      // An older generation never replaces a newer one built by a refresh that finished first.
      if (!this.#value || this.#value.generation <= generation) this.#value = value;
    }
    if (epoch === this.#epoch) this.#checkedAt = now;
    return value.data;
  }
}

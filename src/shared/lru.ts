// A bounded least-recently-used map: keeps hot per-snapshot answers in memory without growing forever.

/** A second bound beside the entry count: the entries' summed weight (bytes, say). */
export interface LruWeight<V> {
  weigh: (value: V) => number;
  max: number;
}

export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  #weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weight?: LruWeight<V>,
  ) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert to mark as most recently used (a Map iterates in insertion order).
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#delete(key);
    this.#entries.set(key, value);
    if (this.weight) this.#weight += this.weight.weigh(value);
    while (this.#entries.size > this.capacity || (this.weight && this.#weight > this.weight.max)) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  #delete(key: K): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    if (this.weight) this.#weight -= this.weight.weigh(value);
  }
}

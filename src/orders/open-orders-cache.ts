// Each solver polls GET /orders?solverId=…&orderStatus=open (or ?filler=<its Executor>&orderStatus=open, as
// vault-solver does) all the time, and the answer changes only when an order
// is created or changes status. So the orders of that answer are kept pre-serialized, per solver and ordering:
// - a write in this process (an OrderEvents event) drops every kept answer, and a read that started before the write
//   neither serves a request that starts after it nor is kept;
// - a write by another replica sharing the database is not signalled here: a kept answer is served only for
//   `maxAgeMs` after the read that made it started, so it shows within that bound. Re-reading the solver's
//   orders is as cheap as checking a change counter would be, and a counter bumped by every order write would
//   serialize the writers on its row.
// Order expiry needs nothing here: the indexer writes it as a status change, like every other transition.
import type { Clock } from "../clock.ts";
import type { OrdersQuery } from "./schemas.ts";

export const OPEN_ORDERS_MAX_AGE_MS = 250;
/** Distinct (solver, filler, ordering) answers kept; solver ids come from the query string, so they are bounded here. */
const MAX_ENTRIES = 256;
/** Bytes of kept answers: a list just short of a page with execution fields is ~2.5 MB. */
export const OPEN_ORDERS_MAX_KEPT_BYTES = 32 * 2 ** 20;

/**
 * Exactly one solver's (by `solverId`, by `filler`, or by both) whole list of open orders, in either ordering: the
 * solvers' poll.
 */
export type OpenOrdersPoll = OrdersQuery & { orderStatus: "open" } & (
    | { solverId: string; filler?: string }
    | { solverId?: undefined; filler: string }
  );

export function isOpenOrdersPoll(query: OrdersQuery): query is OpenOrdersPoll {
  return (
    (query.solverId !== undefined || query.filler !== undefined) &&
    query.orderStatus === "open" &&
    query.orderId === undefined &&
    query.orderIds === undefined &&
    query.orderHash === undefined &&
    query.orderHashes === undefined &&
    query.swapper === undefined &&
    query.limit === undefined &&
    query.cursor === undefined
  );
}

/** The inside of the answer's `orders` array; undefined when the list is longer than one page (it is streamed). */
export type ReadOpenOrders = (query: OpenOrdersPoll) => Promise<Buffer | undefined>;

interface Kept {
  /** Clock time at which the read started: the data is at least this fresh. */
  readAt: number;
  orders: Buffer | undefined;
}

export class OpenOrdersCache {
  readonly #kept = new Map<string, Kept>();
  #keptBytes = 0;
  readonly #reading = new Map<string, { epoch: number; promise: Promise<Kept> }>();
  /** Bumped by `invalidate`: a read started before it is neither joined nor kept. */
  #epoch = 0;

  constructor(
    private readonly read: ReadOpenOrders,
    private readonly clock: Clock,
    private readonly maxAgeMs = OPEN_ORDERS_MAX_AGE_MS,
  ) {}

  /** The orders of the poll's answer, pre-serialized; undefined when the list is too long to keep. */
  async get(query: OpenOrdersPoll): Promise<Buffer | undefined> {
    // The solver id and the filler each select different orders (and a poll may give both): both are in the key.
    const key = JSON.stringify([
      query.sortKey,
      query.sort,
      query.solverId ?? null,
      query.filler ?? null,
      query.view ?? "sluice",
    ]);
    const now = this.clock.now().getTime();
    const kept = this.#kept.get(key);
    if (kept && now - kept.readAt < this.maxAgeMs) return kept.orders;
    const reading = this.#reading.get(key);
    if (reading && reading.epoch === this.#epoch) return (await reading.promise).orders;

    const epoch = this.#epoch;
    const promise: Promise<Kept> = Promise.resolve()
      .then(() => this.read(query))
      .then((orders) => {
        const fresh = { readAt: now, orders };
        if (epoch === this.#epoch) this.#keep(key, fresh);
        return fresh;
      })
      .finally(() => {
        if (this.#reading.get(key)?.promise === promise) this.#reading.delete(key);
      });
    this.#reading.set(key, { epoch, promise });
    return (await promise).orders;
  }

  /** Call after orders changed in this process (once the change has committed). */
  invalidate(): void {
    this.#epoch++;
    this.#kept.clear();
    this.#keptBytes = 0;
  }

  #keep(key: string, kept: Kept): void {
    // Re-inserting moves the key to the end, so the first key is the one refreshed longest ago.
    this.#forget(key);
    // Larger than the whole budget: served to its readers, never kept (it would push out every other answer).
    if ((kept.orders?.length ?? 0) > OPEN_ORDERS_MAX_KEPT_BYTES) return;
    this.#kept.set(key, kept);
    this.#keptBytes += kept.orders?.length ?? 0;
    while (this.#kept.size > MAX_ENTRIES || this.#keptBytes > OPEN_ORDERS_MAX_KEPT_BYTES) {
      const oldest = this.#kept.keys().next().value;
      if (oldest === undefined) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#keptBytes -= kept.orders?.length ?? 0;
  }
}

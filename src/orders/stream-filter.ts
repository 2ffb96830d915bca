// What one order stream follows: the query of GET /orders/stream (GET /orders' order filters, a solver's `solverId`
// or `filler`, the id to resume after), the orders it matches, and when a stream by order ids or hashes is over.
import { z } from "zod";
import { MissingStreamFilterError } from "./errors.ts";
import type { LoggedOrderRow } from "./event-log.ts";
import type { OrderListRow } from "./page-query.ts";
import { type OrdersQuery, OrdersQuerySchema } from "./schemas.ts";
import { END_STATUSES } from "./settlement.ts";
import type { OrderStatus } from "./tables.ts";

/** An event id: a non-negative integer, as `id:` lines carry it. */
const EventIdSchema = z
  .string()
  .regex(/^\d{1,19}$/, "must be an event id (the `id:` of an event this stream sent)")
  .transform((value) => BigInt(value));

// No component id: Fastify's OpenAPI generator expands querystrings inline.
export const OrderStreamQuerySchema = OrdersQuerySchema.pick({
  orderId: true,
  orderIds: true,
  orderHash: true,
  orderHashes: true,
  swapper: true,
  solverId: true,
  filler: true,
}).extend({
  lastEventId: EventIdSchema.optional().meta({
    description: "For clients that cannot set the Last-Event-ID header: the id of the last event received",
  }),
});
export type OrderStreamQuery = z.output<typeof OrderStreamQuerySchema>;

export { EventIdSchema };

const END: ReadonlySet<OrderStatus> = new Set(END_STATUSES);

const WALLET_FILTERS = ["orderId", "orderIds", "orderHash", "orderHashes", "swapper"] as const;

export class StreamFilter {
  /** Order ids and hashes asked for by name: a stream with any ends once each is matched by a final order. */
  readonly #namedIds: ReadonlySet<string>;
  readonly #namedHashes: ReadonlySet<string>;

  constructor(readonly query: Omit<OrderStreamQuery, "lastEventId">) {
    this.#namedIds = new Set([...(query.orderId ? [query.orderId] : []), ...(query.orderIds ?? [])]);
    this.#namedHashes = new Set([
      ...(query.orderHash ? [query.orderHash] : []),
      ...(query.orderHashes ?? []),
    ]);
  }

  /** The filter of a stream request; MissingStreamFilterError without any. */
  static of(query: OrderStreamQuery): StreamFilter {
    const { lastEventId: _resume, ...filters } = query;
    const filter = new StreamFilter(filters);
    if (!filter.solverView && !WALLET_FILTERS.some((name) => query[name] !== undefined))
      throw new MissingStreamFilterError(WALLET_FILTERS);
    return filter;
  }

  /** A solver's stream (by `solverId` or `filler`): its open orders carry the execution fields. */
  get solverView(): boolean {
    return this.query.solverId !== undefined || this.query.filler !== undefined;
  }

  /** Names orders (by id or hash): it ends once each is final. A stream by swapper or solver stays open. */
  get endsWhenFinal(): boolean {
    return this.#namedIds.size + this.#namedHashes.size > 0;
  }

  /** The snapshot's GET /orders query: every matched order, or a solver's open ones. */
  snapshotQuery(): OrdersQuery {
    return {
      ...this.query,
      ...(this.solverView ? { orderStatus: "open" as const } : {}),
      sortKey: "createdAt",
      sort: "desc",
    };
  }

  /** The log's filter: the orders this stream follows, whatever their status. */
  logQuery(): OrdersQuery {
    return { ...this.query, sortKey: "createdAt", sort: "desc" };
  }

  /** The feed's index keys: a change reaches this stream's filter only if it has one of them. */
  keys(): string[] {
    if (this.#namedIds.size > 0) return [...this.#namedIds].map((id) => `order:${id}`);
    if (this.#namedHashes.size > 0) return [...this.#namedHashes].map((hash) => `hash:${hash}`);
    if (this.query.swapper) return [`swapper:${this.query.swapper}`];
    if (this.query.solverId) return [`solver:${this.query.solverId}`];
    return [`filler:${this.query.filler}`];
  }

  matches(row: LoggedOrderRow): boolean {
    const { query } = this;
    return (
      (query.orderId === undefined || row.order_id === query.orderId) &&
      (query.orderIds === undefined || query.orderIds.includes(row.order_id)) &&
      (query.orderHash === undefined || row.order_hash === query.orderHash) &&
      (query.orderHashes === undefined || query.orderHashes.includes(row.order_hash)) &&
      (query.swapper === undefined || row.swapper === query.swapper) &&
      (query.solverId === undefined || row.solver_id === query.solverId) &&
      (query.filler === undefined || row.filler === query.filler)
    );
  }

  /** The names (`order:<id>`, `hash:<hash>`) an order row answers for. */
  namesOf(row: OrderListRow): string[] {
    const names: string[] = [];
    if (this.#namedIds.has(row.order_id)) names.push(`order:${row.order_id}`);
    if (this.#namedHashes.has(row.order_hash)) names.push(`hash:${row.order_hash}`);
    return names;
  }

  /** Every name the stream asked for. */
  names(): string[] {
    return [
      ...[...this.#namedIds].map((id) => `order:${id}`),
      ...[...this.#namedHashes].map((h) => `hash:${h}`),
    ];
  }
}

/** The feed keys of a change: its order id, hash, swapper, solver and Executor. */
export function changeKeys(row: LoggedOrderRow): string[] {
  return [
    `order:${row.order_id}`,
    `hash:${row.order_hash}`,
    `swapper:${row.swapper}`,
    `solver:${row.solver_id}`,
    `filler:${row.filler}`,
  ];
}

/** The order has an end status and the block that decided it is final. */
export function isFinal(row: Pick<OrderListRow, "status" | "finalized">): boolean {
  return END.has(row.status) && row.finalized;
}

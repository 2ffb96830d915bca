// One order stream: what GET /orders/stream sends, as messages the client pulls (the HTTP side writes them as
// Server-Sent Events, taking the next one only once the client has taken the previous ones). It subscribes to the
// feed before it reads anything, so nothing that commits between its reads and its going live is lost; every change
// carries its log id, and a change at or below the stream's cursor is never sent twice.
// - Fresh (or resuming from an id the log no longer holds, marked by a `resync` message first): one `snapshot`
//   message per matched order, each carrying the log's newest id when the stream opened; then every change after
//   that id.
// - Resuming from an id the log holds: every matched change after it, then live.
// - A stream naming orders (ids, hashes) ends (`end`) once each is final; resumed after that, it is `over` (204).
//
// What one stream holds is bounded whatever its client does. The snapshot is read a page at a time, the next page
// only once the client has taken the previous one, each page in one statement of its own, so no connection waits on
// a client. What the feed offers meanwhile is queued up to `maxQueuedBytes`; past that the queue is dropped
// and the stream reads those changes back from the log (which holds them all) once its client catches up. Every read
// goes through the streams' connection budget, so streams never take the connections the request paths need.
//
// The snapshot's pages are read one after another, each in one statement, not in one snapshot of the database: an
// order that changed after the stream's id and before its page was read is sent as it stands then, and its changes
// up to that state are not sent again (per order, what the client sees only moves forward).
import type { Database, RawQuery } from "../db/client.ts";
import type { ConnectionBudget } from "../db/connection-budget.ts";
import type { Cursor } from "./cursor.ts";
import { LOG_PAGE_SIZE, type LoggedChange, queryOf, readChangesAfter, readLogBounds } from "./event-log.ts";
import type { FeedSubscriber, OrderFeed } from "./order-feed.ts";
import { orderJson } from "./order-json.ts";
import { type OrderListRow, pageSql, statementName } from "./page-query.ts";
import { isFinal, type StreamFilter } from "./stream-filter.ts";

export type StreamMessage =
  | { kind: "snapshot"; id: bigint; order: string }
  | { kind: "order"; id: bigint; order: string }
  /** The id the client resumed from is outside the log (pruned, or not this deployment's): a snapshot follows. */
  | { kind: "resync"; lastEventId: bigint; oldestResumableId: bigint }
  | { kind: "end"; id: bigint };

export interface OpenStream {
  kind: "open";
  /**
   * The stream's messages, each read or taken from the queue when asked for; they end after `end`, or without it
   * when the client must reconnect (a chain reset, a failed read, cancel()).
   */
  messages: AsyncGenerator<StreamMessage, void, undefined>;
  /** Ends the stream (its client went, or the server is closing): `messages` ends. */
  cancel(): void;
  /** The bytes of changes queued for the client, at most the streams' `maxQueuedBytes`. */
  readonly queuedBytes: number;
}

export type OpenedStream =
  /** Every named order was final before the client's last event: nothing more will come. */
  { kind: "over" } | OpenStream;

/** Orders read per snapshot query: at most this many records wait in memory for a client that stopped reading. */
export const SNAPSHOT_PAGE_SIZE = 100;
/** Changes one stream queues for its client (their JSON) before it falls back to reading them from the log. */
export const MAX_QUEUED_BYTES = 256 * 1024;

export interface OrderStreamsOptions {
  /** The streams' share of the database's connections: every read of every stream goes through it. */
  budget: ConnectionBudget;
  /** Default MAX_QUEUED_BYTES. */
  maxQueuedBytes?: number;
  /** A stream ended by a failed read (its client resumes). */
  onError?: (error: unknown) => void;
}

/** Reads of the streams, each taking its turn in the streams' connection budget. */
interface StreamReads {
  read<T>(fn: (query: RawQuery) => Promise<T>): Promise<T>;
  /** One statement, which may be a named prepared one. */
  readStatement<T>(fn: (query: Database["query"]) => Promise<T>): Promise<T>;
}

export class OrderStreams {
  readonly #reads: StreamReads;
  readonly #maxQueuedBytes: number;
  readonly #onError: (error: unknown) => void;

  constructor(
    database: Database,
    private readonly feed: OrderFeed,
    options: OrderStreamsOptions,
  ) {
    const { budget } = options;
    this.#reads = {
      read: (fn) => budget.run(() => fn(queryOf(database))),
      readStatement: (fn) =>
        budget.run(() => fn((text, params, options) => database.query(text, params, options))),
    };
    this.#maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
    this.#onError = options.onError ?? (() => {});
  }

  async open(filter: StreamFilter, lastEventId: bigint | undefined): Promise<OpenedStream> {
    const stream = new OrderStream(filter, this.#reads, this.#maxQueuedBytes, this.#onError);
    const unsubscribe = this.feed.subscribe(stream);
    stream.onFinish(unsubscribe);
    try {
      const bounds = await this.#reads.read(readLogBounds);
      const resumable =
        lastEventId !== undefined && lastEventId >= bounds.prunedThrough && lastEventId <= bounds.lastId;
      if (resumable) {
        const first = await stream.resumeFrom(lastEventId);
        if (first.length === 0 && stream.allNamedFinal()) {
          stream.cancel();
          return { kind: "over" };
        }
        return stream.opened({ kind: "resume", first });
      }
      // The first page is read before the answer starts, so a database out of reach is a 503, not an empty stream.
      const first = await stream.snapshotFrom(bounds.lastId);
      const resync =
        lastEventId === undefined ? undefined : { lastEventId, oldestResumableId: bounds.prunedThrough };
      return stream.opened({ kind: "snapshot", lastId: bounds.lastId, first, ...(resync ? { resync } : {}) });
    } catch (error) {
      stream.cancel();
      throw error;
    }
  }
}

/**
 * One page of the snapshot as it is sent (each order's record as JSON: the rows themselves are let go at once), where
 * the next page starts, and the orders on it that changed after the snapshot's id (their newest change's id).
 */
interface SnapshotPage {
  records: string[];
  /** After the page's last order; undefined when the page was the last one. */
  next: Cursor | undefined;
  changedAfter: Map<string, bigint>;
}

type Start =
  | { kind: "resume"; first: LoggedChange[] }
  | {
      kind: "snapshot";
      lastId: bigint;
      first: SnapshotPage;
      resync?: { lastEventId: bigint; oldestResumableId: bigint };
    };

/**
 * The page of the snapshot after `after`, each row with the id of its order's newest change after `lastId` (null
 * when none), in one statement: one snapshot of the database, one round trip, a prepared statement. Only the
 * log's changes after `lastId` are scanned (its primary key): a few, unless the client is slow.
 */
function readSnapshotPage(
  query: Database["query"],
  filter: StreamFilter,
  lastId: bigint,
  after: Cursor | undefined,
): Promise<Array<OrderListRow & { changed_after: string | null }>> {
  const page = pageSql(filter.snapshotQuery(), after, SNAPSHOT_PAGE_SIZE);
  const params = [...page.params, lastId.toString()];
  // The snapshot's order is newest first (snapshotQuery); sort_value prints the instant so that text order is time
  // order.
  const text = `with page as materialized (${page.text}),
      changed as (
        select order_id, max(id) as id from order_events
        where id > $${params.length}::bigint and order_id in (select order_id from page)
        group by order_id
      )
    select page.*, changed.id::text as changed_after
    from page left join changed using (order_id)
    order by page.sort_value desc, page.order_id desc`;
  return query(text, params, { name: statementName(text) });
}

/** Each change's record as JSON per view (with or without execution fields), made once however many streams get it. */
const changeJsonByView = new WeakMap<LoggedChange, Map<boolean, string>>();

function changeJson(change: LoggedChange, executable: boolean): string {
  let views = changeJsonByView.get(change);
  if (!views) {
    views = new Map();
    changeJsonByView.set(change, views);
  }
  let json = views.get(executable);
  if (json === undefined) {
    json = orderJson({ ...change.row, executable });
    views.set(executable, json);
  }
  return json;
}

interface Queued {
  change: LoggedChange;
  bytes: number;
}

class OrderStream implements FeedSubscriber {
  readonly keys: readonly string[];
  #cursor = 0n;
  /** Changes the feed offered that the client has not been sent, oldest first, and their JSON's size. */
  #queue: Queued[] = [];
  #queuedBytes = 0;
  /** The feed offered changes the queue had no room for: the log is read after the cursor before the queue. */
  #behind = false;
  /**
   * Orders the snapshot sent as they stood after a change later than its id, by that change's id: their changes up
   * to it are not sent (the client has that state already). Entries go once the stream passes them.
   */
  readonly #sentAsOf = new Map<string, bigint>();
  /** Wakes the stream waiting for an offer. */
  #wake: (() => void) | undefined;
  /** Whether each named order (`order:<id>`, `hash:<hash>`) is final, as last sent. */
  readonly #final = new Map<string, boolean>();
  #finished = false;
  #onFinish: Array<() => void> = [];

  constructor(
    private readonly filter: StreamFilter,
    private readonly reads: StreamReads,
    private readonly maxQueuedBytes: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.keys = filter.keys();
  }

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  onFinish(callback: () => void): void {
    this.#onFinish.push(callback);
  }

  /** The first page of changes after `lastEventId`, and the named orders' current finality. */
  resumeFrom(lastEventId: bigint): Promise<LoggedChange[]> {
    this.#cursor = lastEventId;
    return this.reads.read(async (query) => {
      if (this.filter.endsWhenFinal) {
        const { text, params } = pageSql(this.filter.logQuery(), undefined, SNAPSHOT_PAGE_SIZE);
        for (const row of await query<OrderListRow>(text, params)) this.#track(row);
      }
      return readChangesAfter(query, lastEventId, LOG_PAGE_SIZE, this.filter.logQuery());
    });
  }

  /** Starts the stream after `lastId` with a snapshot: its first page. */
  snapshotFrom(lastId: bigint): Promise<SnapshotPage> {
    this.#cursor = lastId;
    return this.#readPage(lastId, undefined);
  }

  async #readPage(lastId: bigint, after: Cursor | undefined): Promise<SnapshotPage> {
    const rows = await this.reads.readStatement((query) =>
      readSnapshotPage(query, this.filter, lastId, after),
    );
    const changedAfter = new Map<string, bigint>();
    for (const row of rows)
      if (row.changed_after !== null) changedAfter.set(row.order_id, BigInt(row.changed_after));
    // Each named order's finality as the snapshot sends it: nothing reads it before the snapshot is sent.
    for (const row of rows) this.#track(row);
    const last = rows.at(-1);
    return {
      records: rows.map((row) => orderJson(row)),
      next:
        last && rows.length === SNAPSHOT_PAGE_SIZE ? { k: last.sort_value, id: last.order_id } : undefined,
      changedAfter,
    };
  }

  allNamedFinal(): boolean {
    return this.filter.endsWhenFinal && this.filter.names().every((name) => this.#final.get(name) === true);
  }

  opened(start: Start): OpenStream {
    const stream = this;
    return {
      kind: "open",
      messages: this.#messages(start),
      cancel: () => this.cancel(),
      get queuedBytes() {
        return stream.queuedBytes;
      },
    };
  }

  offer(change: LoggedChange): void {
    if (this.#finished || change.id <= this.#cursor || !this.filter.matches(change.row)) return;
    const bytes = changeJson(change, this.#executable(change)).length;
    if (this.#queuedBytes + bytes > this.maxQueuedBytes) {
      // The log holds every change: read back from it what is dropped here, once the client has caught up.
      this.#queue = [];
      this.#queuedBytes = 0;
      this.#behind = true;
    } else {
      this.#queue.push({ change, bytes });
      this.#queuedBytes += bytes;
    }
    this.#wake?.();
  }

  reset(): void {
    this.cancel();
  }

  cancel(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#wake?.();
    for (const callback of this.#onFinish) callback();
  }

  async *#messages(start: Start): AsyncGenerator<StreamMessage, void, undefined> {
    try {
      if (start.kind === "snapshot") {
        if (start.resync) yield { kind: "resync", ...start.resync };
        yield* this.#snapshot(start.lastId, start.first);
      } else {
        for (const change of start.first) {
          const message = this.#next(change);
          if (message) yield message;
        }
        if (start.first.length === LOG_PAGE_SIZE) this.#behind = true;
      }
      yield* this.#follow();
    } catch (error) {
      // The client reconnects with the last id it got and loses nothing.
      if (!this.#finished) this.onError(error);
    } finally {
      this.cancel();
    }
  }

  async *#snapshot(lastId: bigint, first: SnapshotPage): AsyncGenerator<StreamMessage, void, undefined> {
    let page = first;
    for (;;) {
      for (const [orderId, id] of page.changedAfter) this.#sentAsOf.set(orderId, id);
      for (const order of page.records) yield { kind: "snapshot", id: lastId, order };
      if (!page.next || this.#finished) return;
      page = await this.#readPage(lastId, page.next);
    }
  }

  /** The changes after the snapshot or the resume point: from the log while behind, else as the feed offers them. */
  async *#follow(): AsyncGenerator<StreamMessage, void, undefined> {
    for (;;) {
      if (this.#finished) return;
      if (this.allNamedFinal()) {
        yield { kind: "end", id: this.#cursor };
        return;
      }
      if (this.#behind) {
        // Reset before the read: what is dropped from now on was offered after it began, and is read next time.
        this.#behind = false;
        const page = await this.reads.read((query) =>
          readChangesAfter(query, this.#cursor, LOG_PAGE_SIZE, this.filter.logQuery()),
        );
        for (const change of page) {
          const message = this.#next(change);
          if (message) yield message;
        }
        if (page.length === LOG_PAGE_SIZE) this.#behind = true;
        continue;
      }
      const queued = this.#queue.shift();
      if (queued) {
        this.#queuedBytes -= queued.bytes;
        const message = this.#next(queued.change);
        if (message) yield message;
        continue;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  /** The message for `change`, if the client has not seen it; moves the cursor past it. */
  #next(change: LoggedChange): StreamMessage | undefined {
    if (this.#finished || change.id <= this.#cursor || !this.filter.matches(change.row)) return undefined;
    this.#cursor = change.id;
    const orderId = change.row.order_id;
    const sentAsOf = this.#sentAsOf.get(orderId);
    if (sentAsOf !== undefined) {
      if (change.id >= sentAsOf) this.#sentAsOf.delete(orderId);
      if (change.id <= sentAsOf) return undefined;
    }
    this.#track(change.row);
    return { kind: "order", id: change.id, order: changeJson(change, this.#executable(change)) };
  }

  /** A solver's view adds the execution fields to open orders, as GET /orders does. */
  #executable(change: LoggedChange): boolean {
    return this.filter.solverView && change.row.status === "open";
  }

  #track(row: OrderListRow): void {
    for (const name of this.filter.namesOf(row)) this.#final.set(name, isFinal(row));
  }
}

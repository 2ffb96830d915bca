// One order stream: what GET /orders/stream sends, as messages (the HTTP side writes them as Server-Sent Events).
// It subscribes to the feed before it reads anything, and buffers what the feed offers meanwhile, so nothing that
// commits between its read and its going live is lost; every change carries its log id, and a change at or below
// the stream's cursor is never sent twice.
// - Fresh (or resuming from an id the log no longer holds, marked by a `resync` message first): one `snapshot`
//   message per matched order, read in one snapshot of the database together with the log's newest id, which each
//   snapshot message carries; then every change after that id.
// - Resuming from an id the log holds: every matched change after it, then live.
// - A stream naming orders (ids, hashes) ends (`end`) once each is final; resumed after that, it is `over` (204).
import type { Database, RawQuery } from "../db/client.ts";
import type { Cursor } from "./cursor.ts";
import { LOG_PAGE_SIZE, type LoggedChange, queryOf, readChangesAfter, readLogBounds } from "./event-log.ts";
import type { FeedSubscriber, OrderFeed } from "./order-feed.ts";
import { orderJson } from "./order-json.ts";
import { type OrderListRow, pageSql } from "./page-query.ts";
import { isFinal, type StreamFilter } from "./stream-filter.ts";

export type StreamMessage =
  | { kind: "snapshot"; id: bigint; order: string }
  | { kind: "order"; id: bigint; order: string }
  /** The id the client resumed from is outside the log (pruned, or not this deployment's): a snapshot follows. */
  | { kind: "resync"; lastEventId: bigint; oldestResumableId: bigint }
  | { kind: "end"; id: bigint };

export interface StreamSink {
  send(message: StreamMessage): void;
  /** Ends the response (after `end`, or without it when the client must reconnect: a chain reset, a failed read). */
  close(): void;
}

export type OpenedStream =
  /** Every named order was final before the client's last event: nothing more will come. */
  { kind: "over" } | { kind: "open"; run(sink: StreamSink): void; cancel(): void };

/** Orders read per snapshot query. */
const SNAPSHOT_PAGE_SIZE = 1000;

export class OrderStreams {
  constructor(
    private readonly database: Database,
    private readonly feed: OrderFeed,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async open(filter: StreamFilter, lastEventId: bigint | undefined): Promise<OpenedStream> {
    const stream = new OrderStream(filter, this.database, this.onError);
    const unsubscribe = this.feed.subscribe(stream);
    stream.onFinish(unsubscribe);
    try {
      const query = queryOf(this.database);
      const bounds = await readLogBounds(query);
      const resumable =
        lastEventId !== undefined && lastEventId >= bounds.prunedThrough && lastEventId <= bounds.lastId;
      if (resumable) {
        const first = await stream.resumeFrom(query, lastEventId);
        if (first.length === 0 && stream.allNamedFinal()) {
          stream.cancel();
          return { kind: "over" };
        }
        return stream.opened({ kind: "resume", first });
      }
      const snapshot = await this.database.readConsistently((consistent) => readSnapshot(consistent, filter));
      const resync =
        lastEventId === undefined ? undefined : { lastEventId, oldestResumableId: bounds.prunedThrough };
      return stream.opened({ kind: "snapshot", ...snapshot, ...(resync ? { resync } : {}) });
    } catch (error) {
      stream.cancel();
      throw error;
    }
  }
}

type Start =
  | { kind: "resume"; first: LoggedChange[] }
  | {
      kind: "snapshot";
      lastId: bigint;
      rows: OrderListRow[];
      resync?: { lastEventId: bigint; oldestResumableId: bigint };
    };

/** The log's newest id and every order of the snapshot, in one snapshot of the database. */
async function readSnapshot(
  query: RawQuery,
  filter: StreamFilter,
): Promise<{ lastId: bigint; rows: OrderListRow[] }> {
  const { lastId } = await readLogBounds(query);
  const ordersQuery = filter.snapshotQuery();
  const rows: OrderListRow[] = [];
  let after: Cursor | undefined;
  for (;;) {
    const { text, params } = pageSql(ordersQuery, after, SNAPSHOT_PAGE_SIZE);
    const page = await query<OrderListRow>(text, params);
    rows.push(...page);
    const last = page.at(-1);
    if (!last || page.length < SNAPSHOT_PAGE_SIZE) break;
    after = { k: last.sort_value, id: last.order_id };
  }
  return { lastId, rows };
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

class OrderStream implements FeedSubscriber {
  readonly keys: readonly string[];
  #cursor = 0n;
  /** What the feed offered before the stream went live; undefined once live. */
  #buffer: LoggedChange[] | undefined = [];
  #sink: StreamSink | undefined;
  /** Whether each named order (`order:<id>`, `hash:<hash>`) is final, as last sent. */
  readonly #final = new Map<string, boolean>();
  #finished = false;
  #onFinish: Array<() => void> = [];

  constructor(
    private readonly filter: StreamFilter,
    private readonly database: Database,
    private readonly onError: (error: unknown) => void,
  ) {
    this.keys = filter.keys();
  }

  onFinish(callback: () => void): void {
    this.#onFinish.push(callback);
  }

  /** The first page of changes after `lastEventId`, and the named orders' current finality. */
  async resumeFrom(query: RawQuery, lastEventId: bigint): Promise<LoggedChange[]> {
    this.#cursor = lastEventId;
    if (this.filter.endsWhenFinal) {
      const { text, params } = pageSql(this.filter.logQuery(), undefined, SNAPSHOT_PAGE_SIZE);
      for (const row of await query<OrderListRow>(text, params)) this.#track(row);
    }
    return readChangesAfter(query, lastEventId, LOG_PAGE_SIZE, this.filter.logQuery());
  }

  allNamedFinal(): boolean {
    return this.filter.endsWhenFinal && this.filter.names().every((name) => this.#final.get(name) === true);
  }

  opened(start: Start): OpenedStream {
    return {
      kind: "open",
      run: (sink) => {
        this.#sink = sink;
        this.#run(start).catch((error) => {
          this.onError(error);
          this.#close();
        });
      },
      cancel: () => this.cancel(),
    };
  }

  offer(change: LoggedChange): void {
    if (this.#finished) return;
    if (this.#buffer) this.#buffer.push(change);
    else {
      this.#deliver(change);
      this.#endIfFinal();
    }
  }

  reset(): void {
    this.#close();
  }

  cancel(): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const callback of this.#onFinish) callback();
  }

  async #run(start: Start): Promise<void> {
    if (this.#finished) {
      this.#sink?.close();
      return;
    }
    if (start.kind === "snapshot") {
      if (start.resync) this.#send({ kind: "resync", ...start.resync });
      this.#cursor = start.lastId;
      for (const row of start.rows) {
        this.#track(row);
        this.#send({ kind: "snapshot", id: start.lastId, order: orderJson(row) });
      }
    } else {
      let page = start.first;
      for (;;) {
        for (const change of page) this.#deliver(change);
        if (page.length < LOG_PAGE_SIZE || this.#finished) break;
        page = await readChangesAfter(
          queryOf(this.database),
          this.#cursor,
          LOG_PAGE_SIZE,
          this.filter.logQuery(),
        );
      }
    }
    const buffered = this.#buffer ?? [];
    this.#buffer = undefined;
    for (const change of buffered) this.#deliver(change);
    this.#endIfFinal();
  }

  #deliver(change: LoggedChange): void {
    if (this.#finished || change.id <= this.#cursor || !this.filter.matches(change.row)) return;
    this.#cursor = change.id;
    this.#track(change.row);
    // A solver's view adds the execution fields to open orders, as GET /orders does.
    const executable = this.filter.solverView && change.row.status === "open";
    this.#send({ kind: "order", id: change.id, order: changeJson(change, executable) });
  }

  #track(row: OrderListRow): void {
    for (const name of this.filter.namesOf(row)) this.#final.set(name, isFinal(row));
  }

  #endIfFinal(): void {
    if (this.#finished || !this.allNamedFinal()) return;
    this.#send({ kind: "end", id: this.#cursor });
    this.#close();
  }

  #send(message: StreamMessage): void {
    if (!this.#finished) this.#sink?.send(message);
  }

  #close(): void {
    if (this.#finished) return;
    this.cancel();
    this.#sink?.close();
  }
}

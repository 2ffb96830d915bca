// `streamOrders`: GET /orders/stream (docs/wallets.md "Order stream") as an async iterator of typed events. It resumes
// after a drop with `Last-Event-ID` after the delay the server's `retry:` asks, so a caller sees every change once;
// it returns on `end` or a 204 (every named order is final), and gives up with OrderStreamUnavailableError when the
// stream cannot be opened or keeps dropping without delivering anything, so a caller can poll instead.
import type { Order, OrderStreamQuery } from "./api-types.ts";
import { delay } from "./delay.ts";
import { apiErrorOf, OrderStreamUnavailableError } from "./errors.ts";
import { readServerSentEvents } from "./sse.ts";
import type { Transport } from "./transport.ts";

/** Which orders to follow: `orderId`, `orderIds`, `orderHash`, `orderHashes` or `swapper` (at least one). */
export type OrderStreamFilter = Omit<OrderStreamQuery, "lastEventId" | "solverId" | "filler">;

export type OrderStreamEvent =
  /** An order as it stands when the stream (re)starts from scratch; `id` is the log's newest id at that time. */
  | { type: "snapshot"; id: string; order: Order }
  /** A change of a followed order: the record after it. */
  | { type: "order"; id: string; order: Order }
  /** The id resumed from was too old (or from another deployment): snapshot events follow, start over from them. */
  | { type: "resync"; lastEventId: string; oldestResumableId: string };

export interface StreamOrdersOptions {
  signal?: AbortSignal | undefined;
  /** Resume after this event id (one this stream or an earlier one delivered) instead of starting with a snapshot. */
  lastEventId?: string | undefined;
  /** Give up after this many drops in a row without an event in between (default 3). */
  maxDrops?: number;
}

/** Until the server says otherwise with `retry:` (it does first thing; 2–5 s). */
const DEFAULT_RETRY_MS = 3000;
const DEFAULT_MAX_DROPS = 3;

export async function* streamOrders(
  transport: Transport,
  filter: OrderStreamFilter,
  options: StreamOrdersOptions = {},
): AsyncGenerator<OrderStreamEvent, void, undefined> {
  const { signal } = options;
  const maxDrops = options.maxDrops ?? DEFAULT_MAX_DROPS;
  let lastEventId = options.lastEventId;
  let retryMs = DEFAULT_RETRY_MS;
  let dropsInARow = 0;
  for (;;) {
    let failure: unknown;
    try {
      const response = await transport.openStream("/orders/stream", {
        query: filter,
        headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
        signal,
      });
      if (response.status === 204) return;
      await assertEventStream(response);
      for await (const message of readServerSentEvents(response.body!, {
        onRetry: (ms) => {
          retryMs = ms;
        },
      })) {
        const event = toOrderStreamEvent(message.event, message.id, message.data);
        if (event === "end") return;
        if (event === undefined) continue;
        // Snapshot events all carry the id of the log when the snapshot began, and nothing marks the snapshot's
        // end: resuming from that id after a drop inside the snapshot would skip its remaining orders. So only a
        // change moves the resume point; a drop before the first change takes the snapshot again (states repeat,
        // changes are never lost).
        if (event.type === "order") lastEventId = event.id;
        if (event.type === "resync") lastEventId = undefined;
        dropsInARow = 0;
        yield event;
      }
      failure = new Error("the order stream ended without `end`");
    } catch (error) {
      if (signal?.aborted || error instanceof OrderStreamUnavailableError) throw signal?.reason ?? error;
      // A reset connection or a refused one: reconnect, as after a clean drop.
      failure = error;
    }
    dropsInARow += 1;
    if (dropsInARow > maxDrops)
      throw new OrderStreamUnavailableError(
        `the order stream dropped ${dropsInARow} times in a row without an event`,
        failure,
      );
    await delay(retryMs, signal);
  }
}

/** A stream the client can read, or OrderStreamUnavailableError (the body read for the error's code and request id). */
async function assertEventStream(response: Response): Promise<void> {
  const requestId = response.headers.get("x-request-id");
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: the error keeps the text.
    }
    const error = apiErrorOf(response.status, requestId, body);
    throw new OrderStreamUnavailableError(
      `the order stream answered ${response.status} ${error.code}`,
      error,
    );
  }
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream") || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    throw new OrderStreamUnavailableError(
      `the order stream answered ${type || "no content type"}, not events`,
    );
  }
}

/** An event of the wire as a typed one; "end" for the end; undefined for event types this client does not know. */
function toOrderStreamEvent(
  type: string,
  id: string | undefined,
  data: string,
): OrderStreamEvent | "end" | undefined {
  switch (type) {
    case "snapshot":
    case "order":
      return { type, id: id ?? "", order: JSON.parse(data) as Order };
    case "resync": {
      const { lastEventId, oldestResumableId } = JSON.parse(data) as Record<string, string>;
      return { type, lastEventId: String(lastEventId), oldestResumableId: String(oldestResumableId) };
    }
    case "end":
      return "end";
    default:
      return undefined;
  }
}

// A Server-Sent Events client for tests: opens a stream with node:http (closing it destroys the socket, as a browser
// does; an aborted fetch can leave its socket open, which holds a server's close), parses its events as they arrive (comments and
// `retry:` kept apart), and waits for a condition on what arrived, failing with what it saw when it does not come.
export interface SseEvent {
  event: string;
  id: string | undefined;
  data: string;
}

import { type IncomingMessage, request } from "node:http";
import { listeningPort } from "../../src/app/listen-address.ts";
import type { App } from "../../src/http/server.ts";

export interface SseStream {
  status: number;
  headers: IncomingMessage["headers"];
  /** The body of an answer that is not a stream (an error envelope). */
  body: string;
  /** Every event so far, in order. */
  readonly events: SseEvent[];
  readonly comments: string[];
  readonly retry: number | undefined;
  /** Resolves once the server ended the response. */
  readonly ended: Promise<void>;
  /** The events so far once `condition` holds for them (within `timeoutMs`). */
  until(condition: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const outgoing = request(url, { headers: { accept: "text/event-stream", ...headers } });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.on("response", resolve).on("error", reject).end();
  });
  response.setEncoding("utf8");
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let retry: number | undefined;
  let body = "";
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };

  let buffer = "";
  const parse = () => {
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { event: "message", id: undefined, data: "" };
      let isEvent = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line.slice(1).trim());
        else if (line.startsWith("retry: ")) retry = Number(line.slice(7));
        else if (line.startsWith("event: ")) {
          event.event = line.slice(7);
          isEvent = true;
        } else if (line.startsWith("id: ")) event.id = line.slice(4);
        else if (line.startsWith("data: ")) {
          event.data = line.slice(6);
          isEvent = true;
        }
      }
      if (isEvent) events.push(event);
      end = buffer.indexOf("\n\n");
    }
  };
  const streaming = response.statusCode === 200;
  response.on("data", (chunk: string) => {
    if (!streaming) {
      body += chunk;
      return;
    }
    buffer += chunk;
    parse();
    notify();
  });
  const ended = new Promise<void>((resolve) => {
    response.on("close", () => resolve());
  });
  if (!streaming) await ended;

  let finished = false;
  void ended.then(() => {
    finished = true;
    notify();
  });

  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    get body() {
      return body;
    },
    events,
    comments,
    get retry() {
      return retry;
    },
    ended,
    async until(condition, timeoutMs = 10_000) {
      if (condition(events)) return [...events];
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not met within ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          if (condition(events)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          } else if (finished) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`the stream ended first; events: ${JSON.stringify(events)}`));
          }
        };
        waiters.add(check);
      });
      return [...events];
    },
    close() {
      outgoing.destroy();
    },
  };
}

/** Starts a Sluice's order feed and its public listener on a free loopback port; its order stream's URL. */
export async function listenForOrderStreams(feed: { start(): Promise<void> }, app: App): Promise<string> {
  await feed.start();
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = listeningPort(app.server, 0);
  if (port === 0) throw new Error("not listening");
  return `http://127.0.0.1:${port}/api/v1/orders/stream`;
}

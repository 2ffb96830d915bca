// A Server-Sent Events listener for benchmarks: one node:http request per stream on an agent without a socket cap,
// recording when each event arrived (epoch ms) and nothing else, so thousands of them stay cheap for the bench.
import { Agent, type IncomingMessage, request } from "node:http";

export interface ReceivedEvent {
  event: string;
  id: string | undefined;
  data: string;
  receivedAt: number;
}

export interface SseListener {
  readonly events: ReceivedEvent[];
  /** Resolves with the first event matching `match` (waiting at most `timeoutMs`), or undefined. */
  first(match: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent | undefined>;
  close(): void;
}

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/** Opens `url`; rejects unless it answers 200 (a stream cap answers 503). */
export async function listenSse(
  url: string,
  options: { keepEvents?: boolean; headers?: Record<string, string> } = {},
): Promise<SseListener> {
  const outgoing = request(url, { agent, headers: { accept: "text/event-stream", ...options.headers } });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.on("response", resolve).on("error", reject).end();
  });
  if (response.statusCode !== 200) {
    response.destroy();
    throw new Error(`${url} answered ${response.statusCode}`);
  }
  response.setEncoding("utf8");
  const events: ReceivedEvent[] = [];
  const waiters = new Set<(event: ReceivedEvent) => void>();
  let buffer = "";
  response.on("data", (chunk: string) => {
    const receivedAt = Date.now();
    buffer += chunk;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event: ReceivedEvent = { event: "message", id: undefined, data: "", receivedAt };
      let isEvent = false;
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) [event.event, isEvent] = [line.slice(7), true];
        else if (line.startsWith("id: ")) event.id = line.slice(4);
        else if (line.startsWith("data: ")) [event.data, isEvent] = [line.slice(6), true];
      }
      if (!isEvent) continue;
      if (options.keepEvents !== false) events.push(event);
      for (const waiter of waiters) waiter(event);
    }
  });
  response.on("error", () => {});
  return {
    events,
    first(match, timeoutMs) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(undefined), timeoutMs);
        const waiter = (event: ReceivedEvent) => {
          if (match(event)) finish(event);
        };
        const finish = (event: ReceivedEvent | undefined) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(event);
        };
        waiters.add(waiter);
      });
    },
    close: () => response.destroy(),
  };
}

// Server-Sent Events read from a fetch body (Node 20 has no EventSource), parsed as the HTML standard's event-stream
// interpretation does: `event:`, `id:`, `data:` (lines joined with "\n"), `retry:`, comments (`:`) ignored, one
// event per blank line, CR, LF or CRLF line ends, a leading BOM dropped.

export interface ServerSentEvent {
  /** The `event:` field; "message" when none was given. */
  event: string;
  /** The last event id after this event (the stream's, carried over from earlier events when this one set none). */
  id: string | undefined;
  data: string;
}

export interface SseReaderHooks {
  /** A `retry:` field: the reconnection delay the server asks for, in ms. */
  onRetry?: (ms: number) => void;
}

/** The events of `body`, in order; returns when the body ends (an event cut off by the end is dropped). */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  hooks: SseReaderHooks = {},
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder("utf-8");
  const reader = body.getReader();
  let buffer = "";
  let first = true;
  let lastId: string | undefined;
  let eventType = "";
  let data: string[] = [];
  let hasData = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (;;) {
        const end = lineEnd(buffer);
        if (end === undefined) break;
        const line = buffer.slice(0, end.at);
        buffer = buffer.slice(end.at + end.length);
        if (line === "") {
          if (hasData) yield { event: eventType || "message", id: lastId, data: data.join("\n") };
          eventType = "";
          data = [];
          hasData = false;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        switch (field) {
          case "event":
            eventType = value;
            break;
          case "data":
            data.push(value);
            hasData = true;
            break;
          case "id":
            if (!value.includes("\0")) lastId = value;
            break;
          case "retry":
            if (/^\d+$/.test(value)) hooks.onRetry?.(Number(value));
            break;
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Where the first complete line of `text` ends; a lone CR at the end waits for the next chunk (it may be CRLF). */
function lineEnd(text: string): { at: number; length: number } | undefined {
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n") return { at: i, length: 1 };
    if (char === "\r") {
      if (i + 1 === text.length) return undefined;
      return { at: i, length: text[i + 1] === "\n" ? 2 : 1 };
    }
  }
  return undefined;
}

// A raw TCP client for what no HTTP client library sends: malformed request lines, oversized headers, requests
// written byte by byte. It records everything the server sends until it closes the connection.
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: Socket;
  /** Resolves with everything received once the server has closed the connection. */
  closed: Promise<string>;
  /** Whether the server has closed the connection yet. */
  isClosed(): boolean;
  write(data: string): Promise<void>;
}

export async function openRaw(port: number): Promise<RawConnection> {
  const socket = connect({ host: "127.0.0.1", port });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let received = "";
  let closed = false;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  // A write after the server closed fails with EPIPE/ECONNRESET: the test looks at `closed`, not at that error.
  socket.on("error", () => {});
  const closedPromise = new Promise<string>((resolve) => {
    socket.once("close", () => {
      closed = true;
      resolve(received);
    });
  });
  return {
    socket,
    closed: closedPromise,
    isClosed: () => closed,
    write: (data) =>
      new Promise<void>((resolve) => {
        if (closed || socket.destroyed) return resolve();
        socket.write(data, () => resolve());
      }),
  };
}

/** Parses one HTTP/1.1 answer (status line, headers, body by Content-Length). */
export function parseRawAnswer(text: string): RawAnswer {
  const split = text.indexOf("\r\n\r\n");
  if (split < 0) throw new Error(`no complete HTTP answer in ${JSON.stringify(text.slice(0, 300))}`);
  const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(split + 4);
  const length = headers["content-length"] === undefined ? rest.length : Number(headers["content-length"]);
  return { status, headers, body: rest.slice(0, length) };
}

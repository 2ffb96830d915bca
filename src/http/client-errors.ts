// Errors Node's HTTP parser raises before any route sees a request: a malformed request line, headers too large, a
// request (or its headers) not received in time. Where the connection can still take an answer, it gets the
// swap-flow envelope with an X-Request-Id like every other error; then the connection is closed.
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import { uuidV7 } from "../shared/uuid-v7.ts";
import { type SwapErrorCode, swapBody } from "./errors.ts";

interface ClientErrorAnswer {
  status: number;
  code: SwapErrorCode;
  message: string;
}

/** What a parser or timeout error means to the client (Node's own default answers use the same statuses). */
export function clientErrorAnswer(error: NodeJS.ErrnoException): ClientErrorAnswer {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, code: "HEADERS_TOO_LARGE", message: "Request headers too large" };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, code: "PAYLOAD_TOO_LARGE", message: "Chunk extensions too large" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, code: "REQUEST_TIMEOUT", message: "Request not received in time" };
    default:
      return { status: 400, code: "MALFORMED_REQUEST", message: "Malformed HTTP request" };
  }
}

/**
 * Whether the connection's current response has begun: then raw bytes would corrupt it, and the connection can only
 * be closed. `_httpMessage` is how Node itself tells (its default 'clientError' answer checks the same).
 */
function responseStarted(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current?.headersSent ?? false;
}

export interface ClientErrorHandlerOptions {
  clock: Clock;
  logger: Logger;
  onAnswered?: (status: number) => void;
}

/** A handler for the HTTP server's 'clientError' event (Fastify's `clientErrorHandler`). */
export function createClientErrorHandler(options: ClientErrorHandlerOptions) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection is gone: nothing to answer.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const { status, code, message } = clientErrorAnswer(error);
    const requestId = uuidV7();
    if (socket.writable && !responseStarted(socket)) {
      const body = JSON.stringify(swapBody(status, code, message, undefined, options.clock.now()));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          "Content-Type: application/json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          "Connection: close\r\n\r\n" +
          body,
      );
      options.onAnswered?.(status);
    }
    options.logger.info({ requestId, status, reason: error.code ?? error.message }, "client error");
    // After the answer is flushed: a client that never reads cannot keep the socket.
    socket.destroySoon();
  };
}

// Reads one HTTP/1.1 answer from the bytes of a solver connection, as they arrive: the status line, the headers
// that frame the body or decide the connection's reuse, and the body, framed by Content-Length, chunked transfer
// coding or the connection's close (RFC 9112 §6.3). Interim 1xx answers are skipped. Anything that is not a
// well-formed answer is an HttpAnswerMalformedError; a body over the limit, declared or streamed, is a
// SolverAnswerTooLargeError, found before it is read to the end.

/** Node's own limit on an answer's head (`--max-http-header-size`'s default). */
export const MAX_ANSWER_HEAD_BYTES = 16 * 1024;

export class SolverAnswerTooLargeError extends Error {
  override name = "SolverAnswerTooLargeError";
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`);
  }
}

/** Bytes that are not an HTTP/1.x answer. `code` starts with HPE_, as Node's parser names its errors. */
export class HttpAnswerMalformedError extends Error {
  override name = "HttpAnswerMalformedError";
  readonly code = "HPE_INVALID_ANSWER";
  constructor(reason: string) {
    super(`malformed HTTP answer: ${reason}`);
  }
}

type Phase = "head" | "length" | "chunk-size" | "chunk-data" | "chunk-end" | "trailers" | "close" | "done";

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,8})[ \t]*(?:;.*)?$/;

export class HttpAnswerParser {
  /** Known once the head is read. */
  status = 0;
  /** Whether the connection may carry another request once this answer is read. */
  reusable = false;
  /** The solver's `Keep-Alive: timeout=` hint, in ms. */
  keepAliveHintMs: number | undefined;

  #phase: Phase = "head";
  /** Bytes received but not yet consumed (a head or chunk line split across reads). */
  #pending: Buffer | undefined;
  #bodyChunks: Buffer[] = [];
  #bodyBytes = 0;
  /** Bytes of the current length-framed body or chunk still to come. */
  #remaining = 0;

  constructor(private readonly maxBodyBytes: number) {}

  /** Whether any byte of an answer has arrived. */
  get started(): boolean {
    return this.#phase !== "head" || this.#pending !== undefined;
  }

  get complete(): boolean {
    return this.#phase === "done";
  }

  /** The body as text, once complete. */
  get body(): string {
    const chunks = this.#bodyChunks;
    if (chunks.length === 0) return "";
    return chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8");
  }

  /** Takes the next bytes; true once the answer is complete. Throws on a malformed or oversized answer. */
  push(data: Buffer): boolean {
    if (this.#phase === "done") {
      if (data.length > 0) this.reusable = false;
      return true;
    }
    let bytes = this.#pending ? Buffer.concat([this.#pending, data]) : data;
    this.#pending = undefined;
    while (bytes.length > 0 && !this.complete) bytes = this.#step(bytes);
    // Bytes after the answer: the connection no longer knows where the next answer starts.
    if (this.complete && bytes.length > 0) this.reusable = false;
    return this.complete;
  }

  /** The connection ended: true if that completes the answer (a body framed by the close). */
  end(): boolean {
    if (this.#phase === "close") this.#phase = "done";
    return this.#phase === "done";
  }

  /** Consumes what it can of `bytes`, returning the rest; keeps an unfinished line as pending. */
  #step(bytes: Buffer): Buffer {
    switch (this.#phase) {
      case "head":
        return this.#head(bytes);
      case "length":
        return this.#counted(bytes, "done");
      case "chunk-size":
        return this.#line(bytes, (line) => {
          const match = CHUNK_SIZE.exec(line);
          if (!match) throw new HttpAnswerMalformedError("invalid chunk size");
          this.#remaining = Number.parseInt(match[1]!, 16);
          this.#checkLimit(this.#bodyBytes + this.#remaining);
          this.#phase = this.#remaining === 0 ? "trailers" : "chunk-data";
        });
      case "chunk-data":
        return this.#counted(bytes, "chunk-end");
      case "chunk-end":
        return this.#line(bytes, (line) => {
          if (line !== "") throw new HttpAnswerMalformedError("chunk not followed by CRLF");
          this.#phase = "chunk-size";
        });
      case "trailers":
        return this.#line(bytes, (line) => {
          if (line === "") this.#phase = "done";
        });
      case "close":
        this.#body(bytes);
        return bytes.subarray(bytes.length);
      default:
        return bytes;
    }
  }

  #head(bytes: Buffer): Buffer {
    const end = bytes.indexOf(HEAD_END);
    if (end < 0) {
      if (bytes.length > MAX_ANSWER_HEAD_BYTES) throw new HttpAnswerMalformedError("head too large");
      this.#pending = bytes;
      return bytes.subarray(bytes.length);
    }
    if (end > MAX_ANSWER_HEAD_BYTES) throw new HttpAnswerMalformedError("head too large");
    // Read by index, not split into lines and matched: this runs for every solver answer.
    const head = bytes.toString("latin1", 0, end);
    let lineEnd = head.indexOf("\r\n");
    if (lineEnd < 0) lineEnd = head.length;
    const code = statusCode(head, lineEnd);
    const http10 = head.charCodeAt(7) === ZERO;
    let length: number | undefined;
    let chunked = false;
    let transferCoded = false;
    let closes = false;
    let keepsAlive = false;
    let keepAlive: string | undefined;
    for (let at = lineEnd + 2; at <= head.length; at = lineEnd + 2) {
      lineEnd = head.indexOf("\r\n", at);
      if (lineEnd < 0) lineEnd = head.length;
      const colon = head.indexOf(":", at);
      if (colon <= at || colon > lineEnd || !isToken(head, at, colon))
        throw new HttpAnswerMalformedError("invalid header line");
      const nameLength = colon - at;
      // Only the headers that frame the body or decide reuse are read; their names' lengths tell them apart.
      if (nameLength !== 10 && nameLength !== 14 && nameLength !== 17) continue;
      const name = head.slice(at, colon).toLowerCase();
      if (
        name !== "content-length" &&
        name !== "transfer-encoding" &&
        name !== "connection" &&
        name !== "keep-alive"
      )
        continue;
      const value = headerValue(head, colon + 1, lineEnd);
      switch (name) {
        case "content-length": {
          if (!isDigits(value)) throw new HttpAnswerMalformedError("invalid content-length");
          const declared = Number(value);
          if (length !== undefined && length !== declared)
            throw new HttpAnswerMalformedError("conflicting content-length");
          length = declared;
          break;
        }
        case "transfer-encoding":
          transferCoded = true;
          chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
          break;
        case "connection":
          for (const option of value.toLowerCase().split(",")) {
            const token = option.trim();
            if (token === "close") closes = true;
            else if (token === "keep-alive") keepsAlive = true;
          }
          break;
        case "keep-alive":
          keepAlive = value;
          break;
      }
    }
    const rest = bytes.subarray(end + HEAD_END.length);
    // An interim answer (100 Continue, 103 Early Hints): the real one follows on the same connection.
    if (code >= 100 && code < 200) {
      if (code === 101) throw new HttpAnswerMalformedError("unrequested protocol switch");
      return rest;
    }
    this.status = code;
    this.reusable = !closes && (!http10 || keepsAlive);
    if (keepAlive !== undefined) this.keepAliveHintMs = keepAliveTimeoutMs(keepAlive);
    if (code === 204 || code === 304) {
      this.#phase = "done";
    } else if (transferCoded) {
      // A transfer coding other than chunked last is framed by the close (RFC 9112 §6.3); with a length beside
      // it, the connection is not reused either way.
      if (length !== undefined || !chunked) this.reusable = false;
      this.#phase = chunked ? "chunk-size" : "close";
    } else if (length !== undefined) {
      this.#checkLimit(length);
      this.#remaining = length;
      this.#phase = length === 0 ? "done" : "length";
    } else {
      this.reusable = false;
      this.#phase = "close";
    }
    return rest;
  }

  /** Takes up to the bytes still to come of a length-framed body or a chunk, then moves on to `next`. */
  #counted(bytes: Buffer, next: Phase): Buffer {
    const taken = Math.min(this.#remaining, bytes.length);
    this.#body(bytes.subarray(0, taken));
    this.#remaining -= taken;
    if (this.#remaining === 0) this.#phase = next;
    return bytes.subarray(taken);
  }

  /** Reads one CRLF-ended line; with none yet, keeps the bytes for the next read. */
  #line(bytes: Buffer, take: (line: string) => void): Buffer {
    const end = bytes.indexOf(CRLF);
    if (end < 0) {
      if (bytes.length > MAX_ANSWER_HEAD_BYTES) throw new HttpAnswerMalformedError("line too long");
      this.#pending = bytes;
      return bytes.subarray(bytes.length);
    }
    take(bytes.toString("latin1", 0, end));
    return bytes.subarray(end + CRLF.length);
  }

  #body(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#bodyBytes += bytes.length;
    this.#checkLimit(this.#bodyBytes);
    this.#bodyChunks.push(bytes);
  }

  #checkLimit(bytes: number): void {
    if (bytes > this.maxBodyBytes) throw new SolverAnswerTooLargeError(this.maxBodyBytes);
  }
}

const ZERO = 0x30;
const NINE = 0x39;
const SPACE = 0x20;
const TAB = 0x09;

/** The characters of a header name (RFC 9110 `token`), by char code. */
const TOKEN_CHARS = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  TOKEN_CHARS[char.charCodeAt(0)] = 1;

/** The status code of `HTTP/1.x NNN[ reason]` ending at `lineEnd`. */
function statusCode(head: string, lineEnd: number): number {
  const shape =
    head.startsWith("HTTP/1.") &&
    (head.charCodeAt(7) === ZERO || head.charCodeAt(7) === ZERO + 1) &&
    head.charCodeAt(8) === SPACE &&
    isDigit(head.charCodeAt(9)) &&
    isDigit(head.charCodeAt(10)) &&
    isDigit(head.charCodeAt(11)) &&
    (lineEnd === 12 || (lineEnd > 12 && head.charCodeAt(12) === SPACE));
  if (!shape) throw new HttpAnswerMalformedError("invalid status line");
  return Number(head.slice(9, 12));
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) if (!isDigit(text.charCodeAt(index))) return false;
  return true;
}

function isToken(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128 || TOKEN_CHARS[code] === 0) return false;
  }
  return true;
}

/** A header's value between `from` and `to`, without the whitespace around it. */
function headerValue(head: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && (head.charCodeAt(start) === SPACE || head.charCodeAt(start) === TAB)) start++;
  while (end > start && (head.charCodeAt(end - 1) === SPACE || head.charCodeAt(end - 1) === TAB)) end--;
  return head.slice(start, end);
}

/** `timeout=N` among a Keep-Alive header's parameters, in ms. */
function keepAliveTimeoutMs(value: string): number | undefined {
  for (const parameter of value.split(",")) {
    const [name, seconds] = parameter.split("=");
    if (name?.trim().toLowerCase() === "timeout" && seconds !== undefined && isDigits(seconds.trim()))
      return Number(seconds.trim()) * 1000;
  }
  return undefined;
}

// HttpAnswerParser: every way an HTTP/1.1 answer is framed, fed whole and one byte at a time, and the answers it
// refuses.
import { describe, expect, it } from "vitest";
import {
  HttpAnswerMalformedError,
  HttpAnswerParser,
  MAX_ANSWER_HEAD_BYTES,
  SolverAnswerTooLargeError,
} from "../../src/solvers/http-answer.ts";

const LIMIT = 1024;

/** Feeds `text` in pieces of `size` bytes; returns the parser and whether it completed before the close. */
function parse(text: string, size = Number.POSITIVE_INFINITY, limit = LIMIT) {
  const parser = new HttpAnswerParser(limit);
  const bytes = Buffer.from(text, "latin1");
  let complete = false;
  for (let at = 0; at < bytes.length && !complete; at += size)
    complete = parser.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  return { parser, complete };
}

const framings: Array<[string, string, string]> = [
  ["a Content-Length body", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "hello"],
  [
    "a chunked body with extensions and trailers",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nhel\r\nA\r\nlo, world!\r\n0\r\nX-T: 1\r\n\r\n",
    "hello, world!",
  ],
  ["an empty body", "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", ""],
  ["a 204", "HTTP/1.1 204 No Content\r\n\r\n", ""],
  [
    "an interim 100 Continue before the answer",
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
    "{}",
  ],
  ["a status line without a reason", "HTTP/1.1 503\r\ncontent-length: 4\r\n\r\nbusy", "busy"],
];

describe("HttpAnswerParser", () => {
  it.each(framings)("reads %s, whole or one byte at a time", (_label, text, body) => {
    for (const size of [Number.POSITIVE_INFINITY, 1, 7]) {
      const { parser, complete } = parse(text, size);
      expect(complete).toBe(true);
      expect(parser.body).toBe(body);
      expect(parser.reusable).toBe(true);
    }
  });

  it("reads a body framed by the close, and the connection is not reused", () => {
    const { parser, complete } = parse("HTTP/1.1 200 OK\r\n\r\npart one, ", 3);
    expect(complete).toBe(false);
    expect(parser.push(Buffer.from("part two"))).toBe(false);
    expect(parser.end()).toBe(true);
    expect(parser.body).toBe("part one, part two");
    expect(parser.reusable).toBe(false);
  });

  it("tells a cut-off body from a complete one, and a begun answer from none", () => {
    const fresh = new HttpAnswerParser(LIMIT);
    expect(fresh.started).toBe(false);
    expect(fresh.end()).toBe(false);
    const { parser, complete } = parse("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhalf");
    expect(complete).toBe(false);
    expect(parser.started).toBe(true);
    expect(parser.end()).toBe(false);
    expect(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel").parser.end()).toBe(false);
  });

  it.each([
    ["Connection: close", "HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 0\r\n\r\n", false],
    [
      "Connection: Keep-Alive, Close",
      "HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\ncontent-length: 0\r\n\r\n",
      false,
    ],
    ["HTTP/1.0", "HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n", false],
    [
      "HTTP/1.0 with keep-alive",
      "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\ncontent-length: 0\r\n\r\n",
      true,
    ],
    [
      "both a length and chunked",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      false,
    ],
    ["bytes after the answer", "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}junk", false],
  ])("decides reuse: %s", (_label, text, reusable) => {
    const { parser, complete } = parse(text);
    expect(complete).toBe(true);
    expect(parser.reusable).toBe(reusable);
  });

  it("reads header names in any case, and values without the whitespace around them", () => {
    const { parser, complete } = parse(
      "HTTP/1.1 200 OK\r\nCONTENT-length: \t 2 \t\r\nX-Other:\r\nConnection:  Keep-Alive ,  CLOSE \r\n\r\n{}",
    );
    expect(complete).toBe(true);
    expect(parser.body).toBe("{}");
    expect(parser.reusable).toBe(false);
  });

  it("reads the solver's Keep-Alive timeout hint", () => {
    const { parser } = parse(
      "HTTP/1.1 200 OK\r\nKeep-Alive: max=100, timeout=2\r\ncontent-length: 0\r\n\r\n",
    );
    expect(parser.keepAliveHintMs).toBe(2000);
    expect(parse("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").parser.keepAliveHintMs).toBeUndefined();
    expect(
      parse("HTTP/1.1 200 OK\r\nKeep-Alive: max=5\r\ncontent-length: 0\r\n\r\n").parser.keepAliveHintMs,
    ).toBeUndefined();
  });

  it.each([
    ["a declared length", `HTTP/1.1 200 OK\r\ncontent-length: ${LIMIT + 1}\r\n\r\n`],
    [
      "a chunk's declared size",
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(LIMIT + 1).toString(16)}\r\n`,
    ],
    ["a body read to the close", `HTTP/1.1 200 OK\r\n\r\n${"x".repeat(LIMIT + 1)}`],
    [
      "chunks adding up",
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n${"x".repeat(512)}\r\n201\r\n`,
    ],
  ])("refuses a body over the limit from %s, before reading it", (_label, text) => {
    expect(() => parse(text)).toThrow(SolverAnswerTooLargeError);
  });

  it("reads a body exactly at the limit", () => {
    expect(
      parse(`HTTP/1.1 200 OK\r\ncontent-length: ${LIMIT}\r\n\r\n${"y".repeat(LIMIT)}`).parser.body,
    ).toHaveLength(LIMIT);
  });

  it.each([
    ["not HTTP", "SSH-2.0-OpenSSH_9.2\r\n\r\n"],
    ["an HTTP/2 status line", "HTTP/2 200\r\n\r\n"],
    ["a four-digit status", "HTTP/1.1 2000 OK\r\n\r\n"],
    ["an empty header name", "HTTP/1.1 200 OK\r\n: x\r\n\r\n"],
    ["a header without a colon", "HTTP/1.1 200 OK\r\nbroken\r\n\r\n"],
    ["a header name with a space", "HTTP/1.1 200 OK\r\nbad name: 1\r\n\r\n"],
    ["a folded header", "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n"],
    ["a negative length", "HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n"],
    ["two different lengths", "HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n"],
    ["a chunk size that is not hex", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"],
    ["a chunk without its CRLF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n"],
    ["a protocol switch nobody asked for", "HTTP/1.1 101 Switching Protocols\r\n\r\n"],
    [
      "a head larger than Node allows",
      `HTTP/1.1 200 OK\r\nX-Big: ${"b".repeat(MAX_ANSWER_HEAD_BYTES)}\r\n\r\n`,
    ],
    ["a head that never ends", `HTTP/1.1 200 OK\r\nX-Big: ${"b".repeat(MAX_ANSWER_HEAD_BYTES)}`],
  ])("refuses %s as malformed", (_label, text) => {
    for (const size of [Number.POSITIVE_INFINITY, 5])
      expect(() => parse(text, size)).toThrow(HttpAnswerMalformedError);
  });
});

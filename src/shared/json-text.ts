// JSON answers written ahead of the response serializer: a buffer of ready bytes (cached, or read straight from
// SQL) or a stream of text pieces (lists of any length in flat memory). They skip the serializer, so what they
// hold is said by their type instead: `JsonText<T>` is the JSON of a value of type T (the route's response type),
// and a route whose answer is T accepts it (src/http/type-provider.ts) where it would accept a T.
import { Readable } from "node:stream";

declare const jsonOf: unique symbol;

/** The JSON of a value of type T, as bytes. */
export type JsonBytes<T> = Buffer & { readonly [jsonOf]: T };
/** The JSON of a value of type T, as a stream of text pieces. */
export type JsonStream<T> = Readable & { readonly [jsonOf]: T };
export type JsonText<T> = JsonBytes<T> | JsonStream<T>;
/** The JSON of a value of type T, as text pieces still to be written (a generator reading pages). */
export type JsonPieces<T> = AsyncIterable<string> & { readonly [jsonOf]: T };

/** Serializes `value` whole: the bytes are T's JSON by construction. */
export function jsonBytes<T>(value: T): JsonBytes<T> {
  return writtenAsJson<T>(Buffer.from(JSON.stringify(value)));
}

/**
 * Marks bytes or a stream written by hand (key by key, from rows whose SQL already gives every value its wire form)
 * as T's JSON. The writer vouches for it, and the tests validate what it writes against T's schema.
 */
export function writtenAsJson<T>(text: Buffer): JsonBytes<T>;
export function writtenAsJson<T>(text: Readable): JsonStream<T>;
export function writtenAsJson<T>(text: AsyncIterable<string>): JsonPieces<T>;
export function writtenAsJson<T>(
  text: Buffer | Readable | AsyncIterable<string>,
): JsonText<T> | JsonPieces<T> {
  return text as JsonText<T> | JsonPieces<T>;
}

/** The pieces as a byte stream, written as they come (a client reading slowly holds the generator back). */
export function jsonStream<T>(
  pieces: JsonPieces<T>,
  options: { highWaterMark?: number } = {},
): JsonStream<T> {
  return writtenAsJson<T>(Readable.from(pieces, { objectMode: false, ...options }));
}

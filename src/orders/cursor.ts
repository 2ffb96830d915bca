// The opaque keyset cursor of GET /orders: the sort column's value and the order id of the last order returned, as
// base64url JSON behind the `oc_` prefix, the form the real backend's document gives its `cursor` parameter
// (`^oc_[A-Za-z0-9_-]+$`), so a client checking its parameters against that document can pass ours back.
import { InvalidCursorError } from "./errors.ts";

export interface Cursor {
  /** Sort column value, ISO 8601 with microseconds as PostgreSQL prints it. */
  k: string;
  id: string;
}

const CURSOR_PREFIX = "oc_";

export function encodeCursor(cursor: Cursor): string {
  return `${CURSOR_PREFIX}${Buffer.from(JSON.stringify(cursor)).toString("base64url")}`;
}

// Exactly what the list writes: a UUID, and the sort column printed with microseconds (page-query.ts CURSOR_TIME).
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CURSOR_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{6}Z$/;

/** Whether `k` is a real instant in the form the list prints: PostgreSQL casts it to timestamptz as is. */
function isCursorTime(k: string): boolean {
  const match = CURSOR_TIME.exec(k);
  // Year 0 parses in JavaScript but does not exist in PostgreSQL.
  if (!match || k.startsWith("0000")) return false;
  // Date.parse accepts days the month does not have (2026-02-30) and PostgreSQL does not: a round trip tells.
  const time = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(match[1]!);
}

export function decodeCursor(value: string): Cursor {
  if (!value.startsWith(CURSOR_PREFIX)) throw new InvalidCursorError();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value.slice(CURSOR_PREFIX.length), "base64url").toString("utf8"));
  } catch {
    throw new InvalidCursorError();
  }
  if (typeof parsed !== "object" || parsed === null) throw new InvalidCursorError();
  const { k, id } = parsed as Record<string, unknown>;
  if (typeof k !== "string" || !isCursorTime(k) || typeof id !== "string" || !CURSOR_ID.test(id))
    throw new InvalidCursorError();
  return { k, id };
}

// The opaque keyset cursor of GET /orders: the sort column's value and the order id of the last order returned.
import { ApiError } from "../http/errors.ts";

export interface Cursor {
  /** Sort column value, ISO 8601 with microseconds as PostgreSQL prints it. */
  k: string;
  id: string;
}

export class InvalidCursorError extends ApiError {
  constructor() {
    super(400, "VALIDATION_FAILED", "Invalid cursor", {
      issues: [{ path: "cursor", message: "not a cursor this API issued" }],
    });
  }
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      typeof parsed?.k === "string" &&
      !Number.isNaN(Date.parse(parsed.k)) &&
      typeof parsed?.id === "string" &&
      /^[0-9a-f-]{36}$/.test(parsed.id)
    ) {
      return { k: parsed.k, id: parsed.id };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}

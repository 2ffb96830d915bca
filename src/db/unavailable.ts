// The one place that tells "the database cannot be reached or did not answer in time" from every other database
// error. Only the database client's own failures are classified, where the client raises them (src/db/postgres.ts
// wraps its connections and queries): a socket error met anywhere else (a client hanging up mid-body, an RPC
// connection reset) is never "database unavailable". Callers (the HTTP error layer, the workers) see one named
// class, with the driver's error as its cause.
import type { OutageError } from "../outages.ts";

export class DatabaseUnavailableError extends Error implements OutageError {
  override name = "DatabaseUnavailableError";
  readonly outage = "database";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Socket errors of a connection that could not be made or broke. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is going away, not accepting connections, or that cancelled a statement at its
 * statement_timeout (57014).
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/** node-postgres and pg-pool report these without a code. */
const DRIVER_MESSAGES = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Connection terminated due to connection timeout",
  "timeout expired",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Query read timeout",
]);

/**
 * A DatabaseUnavailableError (the one in `error`'s `cause` chain, as drizzle wraps what the client threw) when the
 * error means the database is out of reach; undefined for every other error. Only errors the database client raised
 * are in this class (see `asClientFailure`).
 */
export function asDatabaseUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof DatabaseUnavailableError) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * What the database client raises for `error`, one of its own failures: a DatabaseUnavailableError (with `error` as
 * its cause) when it means the database is out of reach, `error` itself otherwise (a constraint, a syntax error).
 * Called only where the client (node-postgres) hands its failure back.
 */
export function asClientFailure(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof DatabaseUnavailableError) return error;
  if (!isUnavailable(error)) return error;
  return new DatabaseUnavailableError(`database unavailable: ${error.message}`, { cause: error });
}

function isUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  // A host name with several addresses fails with one error per address.
  if (error instanceof AggregateError)
    return error.errors.some((inner) => inner instanceof Error && isUnavailable(inner));
  return DRIVER_MESSAGES.has(error.message);
}

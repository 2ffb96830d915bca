// Every status a route can answer, with the codes each one carries: derived from the errors the route's service can
// throw (through the one error table) and from what the framework answers for the route's shape (its inputs, a body,
// the database behind it), never written per route. route() adds these statuses to the route's response schemas and
// the OpenAPI document describes each one from here.
import { ChainUnavailableError } from "../chain/errors.ts";
import type { ErrorClass } from "../shared/errors.ts";
import { type PartnerErrorCode, rowOf, type SwapErrorCode } from "./error-table.ts";

export type Envelope = "swap" | "partner";

/** What a route's handler schema says about its failures, besides its inputs. */
export interface RouteFailures {
  /** The named errors its service can throw (each has a row in the error table). */
  errors?: readonly ErrorClass[];
  /** It reads or writes the database: an unreachable one answers 503. */
  database?: boolean;
  /** It reads the chain: an RPC out of reach answers 503 CHAIN_UNAVAILABLE (with Retry-After). */
  chain?: boolean;
  /** What each status the route declares itself means (its 200, a 304, …); error statuses are described here. */
  descriptions?: Partial<Record<number, string>>;
}

/** One error status of a route: its envelope and every code it can carry there. */
export interface ErrorStatusAnswer {
  status: number;
  envelope: Envelope;
  codes: Array<SwapErrorCode | PartnerErrorCode>;
  /** The codes among `codes` answered with a Retry-After header. */
  retryAfterCodes?: Array<SwapErrorCode | PartnerErrorCode>;
}

/** What the framework answers, per envelope, for each failure no domain class stands for. */
const FRAMEWORK = {
  validation: { status: 400, swap: "VALIDATION_FAILED", partner: "anErrorOccurred" },
  tooLarge: { status: 413, swap: "PAYLOAD_TOO_LARGE", partner: "anErrorOccurred" },
  mediaType: { status: 415, swap: "UNSUPPORTED_MEDIA_TYPE", partner: "anErrorOccurred" },
  internal: { status: 500, swap: "INTERNAL", partner: "ooops" },
  unavailable: { status: 503, swap: "SERVICE_UNAVAILABLE", partner: "ooops" },
} as const satisfies Record<string, { status: number; swap: SwapErrorCode; partner: PartnerErrorCode }>;

export interface RouteShape {
  method: "GET" | "POST";
  envelope: Envelope;
  /** The route validates a body, query string, path parameters or headers. */
  validatesInput: boolean;
  failures: RouteFailures;
}

/**
 * The error statuses a route can answer, in status order: a POST reads a JSON body (400 malformed, 413 over the body
 * limit, 415 not JSON); validated input answers 400; the database unreachable 503, the chain unreachable 503
 * CHAIN_UNAVAILABLE; any route 500 on a failure nobody named; and each named error its row's statuses and code.
 */
export function errorStatusAnswers(shape: RouteShape): ErrorStatusAnswer[] {
  const answers = new Map<number, ErrorStatusAnswer>();
  const add = (status: number, envelope: Envelope, code: SwapErrorCode | PartnerErrorCode, why: string) => {
    const answer = answers.get(status) ?? { status, envelope, codes: [] };
    if (answer.envelope !== envelope)
      throw new Error(`${status} would answer both envelopes (${why} is ${envelope})`);
    if (!answer.codes.includes(code)) answer.codes.push(code);
    answers.set(status, answer);
  };
  const framework = (failure: keyof typeof FRAMEWORK) => {
    const row = FRAMEWORK[failure];
    add(row.status, shape.envelope, row[shape.envelope], failure);
  };

  if (shape.validatesInput || shape.method === "POST") framework("validation");
  const errors = [...(shape.failures.errors ?? []), ...(shape.failures.chain ? [ChainUnavailableError] : [])];
  for (const error of errors) {
    const row = rowOf(error);
    if (!row) throw new Error(`${error.name} has no row in the HTTP error table`);
    for (const status of row.statuses) {
      add(status, row.envelope, row.code, error.name);
      const answer = answers.get(status)!;
      if ("retryAfterOf" in row && row.retryAfterOf)
        answer.retryAfterCodes = [...new Set([...(answer.retryAfterCodes ?? []), row.code])];
    }
  }
  if (shape.method === "POST") {
    framework("tooLarge");
    framework("mediaType");
  }
  framework("internal");
  if (shape.failures.database) framework("unavailable");
  return [...answers.values()].sort((a, b) => a.status - b.status);
}

/** What each status means to a client, whatever the route. */
export const STATUS_MEANINGS: Record<number, string> = {
  200: "OK",
  302: "Found: redirected",
  304: "Not modified: the representation still has the ETag given in If-None-Match",
  400: "Bad request",
  401: "Unauthenticated",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict with the current state",
  410: "Gone",
  413: "Payload too large (the body limit is 1 MiB)",
  415: "Unsupported media type (send `Content-Type: application/json`)",
  421: "Misdirected request: the Host is not one this listener answers to",
  429: "Too many requests from this client",
  500: "Internal error",
  503: "Service unavailable: retry later",
};

/** What each error code means, for the document's descriptions and examples. */
export const CODE_MEANINGS: Record<SwapErrorCode | PartnerErrorCode, string> = {
  VALIDATION_FAILED: "The request does not match its schema; `details.issues[]` names each bad field",
  UNSUPPORTED_CHAIN: "The chain id is not this deployment's",
  UNSUPPORTED_TOKEN: "The token is not one this deployment supports on that side",
  NO_QUOTES: "No quotes available (below the token minimum, no eligible solver, or no non-zero quote)",
  AUCTION_NOT_FOUND: "No /quote round or /order hard round was stored under this request id",
  AUCTION_OPEN:
    "The round's quotes can still be taken: its results are public from `details.availableAt` (ISO-8601)",
  DUPLICATE_TOKEN: "A token is listed more than once",
  MISSING_FILTER: "At least one filter is required",
  QUOTE_NOT_FOUND: "Unknown quote id",
  QUOTE_EXPIRED: "The quote has expired",
  QUOTE_UNAVAILABLE: "No solver can honor the quote any more, or its nonce is used",
  SOLVERS_BUSY:
    "No quote: solvers that could answer were left out by their concurrency cap; retry after `Retry-After` seconds " +
    "(`details.solversAsked`, `details.solversBusy`)",
  CHAIN_UNAVAILABLE:
    "The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` " +
    "seconds (`details.chainId`, `details.chain`)",
  QUOTE_MISMATCH: "The submitted quote differs from the quote issued",
  ORDER_NOT_FOUND: "Unknown order id",
  TRAIL_NOT_FOUND: "No order has this id, or no /quote round or /order call this request id",
  ORDER_NOT_OPEN:
    "The order is not open (nor insufficient-funds), or its deadline has passed by chain time: nothing to cancel",
  INVALID_SIGNATURE: "The signature does not recover to the expected signer",
  UNAUTHORIZED_SIGNER: "The signer is not authorized on the adapter",
  DISCOUNT_REJECTED: "The discount breaks a rule; `details.reason` says which",
  UNAUTHORIZED: "Missing, wrong or insufficient solver credentials",
  NOT_FOUND: "Not found",
  SOLVER_NOT_FOUND: "No configured solver has this id",
  DEV_ONLY: "Served by a local devnet only",
  UNSUPPORTED_MEDIA_TYPE: "The body is not JSON",
  PAYLOAD_TOO_LARGE: "The body is over 1 MiB",
  MALFORMED_REQUEST: "The request line or headers are malformed",
  HEADERS_TOO_LARGE: "The headers are over 16 KB",
  REQUEST_TIMEOUT: "The request was not received in time",
  MISDIRECTED_REQUEST: "The internal listener does not answer to that Host (INTERNAL_ALLOWED_HOSTS)",
  INTERNAL: "Unexpected server error",
  SERVICE_UNAVAILABLE: "The database is unavailable; retry later",
  TOO_MANY_STREAMS:
    "This client holds as many order streams as one client may (STREAM_MAX_PER_IP; a solver's own streams: STREAM_MAX_PER_SOLVER)",
  STREAMS_AT_CAPACITY:
    "This replica holds as many order streams as it may (STREAM_MAX_CONNECTIONS); retry later",
  INVALID_API_KEY: "The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)",
  RATE_LIMITED:
    "Over the caller's rate limit of the route's class (per API key, or per client address without one); retry " +
    "after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and " +
    "`RateLimit-Reset`",
  OVERLOADED:
    "This replica sheds /quote rounds (too many in flight, or its event loop lags); retry after `Retry-After` seconds",
  noData: "No points data has been ingested yet",
  noResultsFound: "Nothing matches (e.g. an unknown vault)",
  anErrorOccurred: "The request is invalid",
  pageNotFound: "No such page (or a retired one)",
  ooops: "Something went wrong on the server (or the database is unavailable)",
};

/** The response description of an error status: what it means, then each code it carries and what that means. */
export function errorStatusDescription(answer: ErrorStatusAnswer): string {
  const codes = answer.codes.map((code) => `- \`${code}\`: ${CODE_MEANINGS[code]}`).join("\n");
  return `${STATUS_MEANINGS[answer.status] ?? `Status ${answer.status}`}. Error codes:\n${codes}`;
}

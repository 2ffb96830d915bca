// The one table from a named domain failure to its HTTP answer: the envelope (swap flow or partner), the status and
// the code. The message and details are the error's own. Failures the framework detects (validation, unknown paths,
// unreadable bodies, parser errors, the database out of reach, unhandled errors) keep their codes below.
import { AdminAuthenticationError, NoPointsEngineError } from "../admin/errors.ts";
import {
  ApiKeyNameTakenError,
  InvalidApiKeyError,
  PartnerInvalidApiKeyError,
  UnknownApiKeyError,
} from "../api-keys/errors.ts";
import { AuctionNotFoundError, AuctionOpenError } from "../auctions/errors.ts";
import { ChainUnavailableError } from "../chain/errors.ts";
import {
  DevOnlyError,
  DevRpcUnavailableError,
  FaucetBundleIncompleteError,
  FaucetError,
} from "../devnet/errors.ts";
import {
  DiscountNotLiveError,
  DiscountRejectedError,
  type DiscountRejectionReason,
  InvalidDiscountSignatureError,
  SolverAuthenticationError,
  SolverForbiddenError,
  UnauthorizedSignerError,
} from "../discounts/errors.ts";
import { OverloadedError, PartnerRateLimitedError, RateLimitedError } from "../limits/errors.ts";
import { DuplicateTokenError, UnsupportedLiquidityTokenError } from "../liquidity/errors.ts";
import {
  InvalidCursorError,
  InvalidLastEventIdError,
  InvalidSwapperSignatureError,
  MissingOrdersFilterError,
  MissingStreamFilterError,
  OrderNotFoundError,
  OrderNotOpenError,
  OtherSolverStreamError,
  QuoteExpiredError,
  QuoteMismatchError,
  QuoteNotFoundError,
  QuoteUnavailableError,
  StreamCapacityError,
  StreamClientLimitError,
} from "../orders/errors.ts";
import { DeprecatedPointsRouteError, NoPointsDataError, UnknownVaultError } from "../points/errors.ts";
import {
  PointsEngineBusyError,
  PointsEngineConfigChangedError,
  PointsEngineLeaseLostError,
  PointsEngineNotConfiguredError,
} from "../points-engine/errors.ts";
import { SolversBusyError } from "../rounds/errors.ts";
import { SolverNotFoundError } from "../scorecards/errors.ts";
import type { BaseError, ErrorClass } from "../shared/errors.ts";
import {
  SolverConflictError,
  SolverNotAddedError,
  UnknownSolverError,
  UnknownSolverLogoError,
} from "../solvers/errors.ts";
import {
  InvalidOutputsError,
  NoQuotesError,
  UnsupportedChainError,
  UnsupportedTokenError,
} from "../swap/errors.ts";
import { TrailNotFoundError } from "../trail/errors.ts";
import { MetricsElsewhereError } from "./system-errors.ts";

/** The partner API's codes, fixed by the partner spec. */
export const PARTNER_ERROR_CODES = [
  "noData",
  "noResultsFound",
  "anErrorOccurred",
  "pageNotFound",
  "ooops",
] as const;
export type PartnerErrorCode = (typeof PARTNER_ERROR_CODES)[number];

/** Swap-flow codes the server itself answers, for failures no domain class stands for. */
export const FRAMEWORK_SWAP_ERROR_CODES = [
  "VALIDATION_FAILED",
  "NOT_FOUND",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "MALFORMED_REQUEST",
  "HEADERS_TOO_LARGE",
  "REQUEST_TIMEOUT",
  "MISDIRECTED_REQUEST",
  "INTERNAL",
  "SERVICE_UNAVAILABLE",
] as const;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 429 | 500 | 503;

interface Row<Envelope extends "swap" | "partner", Code extends string> {
  readonly error: ErrorClass;
  readonly envelope: Envelope;
  readonly code: Code;
  /** Every status the class can be answered with (what a route that throws it declares). */
  readonly statuses: readonly ErrorStatus[];
  readonly statusOf: (error: BaseError) => ErrorStatus;
  /** For a failure that passes by itself: the seconds a client waits before retrying (the Retry-After header). */
  readonly retryAfterOf?: (error: BaseError) => number;
}

function swap<const Code extends Uppercase<string>>(
  error: ErrorClass,
  status: ErrorStatus,
  code: Code,
): Row<"swap", Code> {
  return { error, envelope: "swap", code, statuses: [status], statusOf: () => status };
}

/** A class whose status depends on the failure (each instance's own facts pick one of `statuses`). */
function swapByCase<E extends BaseError, const Code extends Uppercase<string>>(
  error: ErrorClass<E>,
  statusOf: (error: E) => ErrorStatus,
  statuses: readonly ErrorStatus[],
  code: Code,
): Row<"swap", Code> {
  return { error, envelope: "swap", code, statuses, statusOf: (failure) => statusOf(failure as E) };
}

/** A failure that passes by itself: answered with a Retry-After header of the error's `retryAfterSeconds`. */
function swapRetryable<
  E extends BaseError & { retryAfterSeconds: number },
  const Code extends Uppercase<string>,
>(error: ErrorClass<E>, status: ErrorStatus, code: Code): Row<"swap", Code> {
  return { ...swap(error, status, code), retryAfterOf: (failure) => (failure as E).retryAfterSeconds };
}

function partner(
  error: ErrorClass,
  status: ErrorStatus,
  code: PartnerErrorCode,
): Row<"partner", PartnerErrorCode> {
  return { error, envelope: "partner", code, statuses: [status], statusOf: () => status };
}

/** Rules a discount can never meet answer 400; conflicts with stored or on-chain state answer 409. */
const DISCOUNT_REJECTION_STATUS: Record<DiscountRejectionReason, 400 | 409> = {
  wrong_protocol: 400,
  unknown_adapter: 400,
  unsupported_token: 400,
  below_min_discount: 400,
  above_max_discount: 400,
  expired: 400,
  nonce_used: 409,
  cancelled: 409,
  replayed_cancel: 409,
};

export const ERROR_TABLE = [
  // Every limited route (its class in the route table): the caller's key, its rate, and /quote's load shedding.
  swap(InvalidApiKeyError, 401, "INVALID_API_KEY"),
  partner(PartnerInvalidApiKeyError, 401, "anErrorOccurred"),
  swapRetryable(RateLimitedError, 429, "RATE_LIMITED"),
  partner(PartnerRateLimitedError, 429, "anErrorOccurred"),
  swapRetryable(OverloadedError, 503, "OVERLOADED"),
  // POST /quote (and /check_approval's chain and token checks).
  swap(InvalidOutputsError, 400, "VALIDATION_FAILED"),
  swap(UnsupportedChainError, 400, "UNSUPPORTED_CHAIN"),
  swap(UnsupportedTokenError, 400, "UNSUPPORTED_TOKEN"),
  swap(NoQuotesError, 404, "NO_QUOTES"),
  // POST /quote and POST /order: a round whose solvers were left out by their concurrency cap.
  swapRetryable(SolversBusyError, 503, "SOLVERS_BUSY"),
  // Every route that reads the chain: no RPC endpoint answered.
  swapRetryable(ChainUnavailableError, 503, "CHAIN_UNAVAILABLE"),
  // GET /auctions/{requestId}.
  swap(AuctionNotFoundError, 404, "AUCTION_NOT_FOUND"),
  swap(AuctionOpenError, 409, "AUCTION_OPEN"),
  // POST /liquidity, /liquidity-batch.
  swap(UnsupportedLiquidityTokenError, 400, "UNSUPPORTED_TOKEN"),
  swap(DuplicateTokenError, 400, "DUPLICATE_TOKEN"),
  // GET /orders.
  swap(MissingOrdersFilterError, 400, "MISSING_FILTER"),
  swap(InvalidCursorError, 400, "VALIDATION_FAILED"),
  // GET /orders/stream.
  swap(MissingStreamFilterError, 400, "MISSING_FILTER"),
  swap(InvalidLastEventIdError, 400, "VALIDATION_FAILED"),
  swap(OtherSolverStreamError, 403, "UNAUTHORIZED"),
  swap(StreamClientLimitError, 429, "TOO_MANY_STREAMS"),
  swap(StreamCapacityError, 503, "STREAMS_AT_CAPACITY"),
  // POST /order.
  swap(QuoteNotFoundError, 404, "QUOTE_NOT_FOUND"),
  swap(QuoteExpiredError, 409, "QUOTE_EXPIRED"),
  swap(QuoteUnavailableError, 409, "QUOTE_UNAVAILABLE"),
  swap(QuoteMismatchError, 400, "QUOTE_MISMATCH"),
  swap(InvalidSwapperSignatureError, 400, "INVALID_SIGNATURE"),
  // POST /cancel.
  swap(OrderNotFoundError, 404, "ORDER_NOT_FOUND"),
  swap(OrderNotOpenError, 409, "ORDER_NOT_OPEN"),
  // POST /discount.
  swap(InvalidDiscountSignatureError, 400, "INVALID_SIGNATURE"),
  swap(UnauthorizedSignerError, 400, "UNAUTHORIZED_SIGNER"),
  swapByCase(
    DiscountRejectedError,
    (error) => DISCOUNT_REJECTION_STATUS[error.reason],
    [400, 409],
    "DISCOUNT_REJECTED",
  ),
  // The internal discount API.
  swap(SolverAuthenticationError, 401, "UNAUTHORIZED"),
  swap(SolverForbiddenError, 403, "UNAUTHORIZED"),
  swap(DiscountNotLiveError, 404, "NOT_FOUND"),
  // GET /solvers/{id}.
  swap(SolverNotFoundError, 404, "SOLVER_NOT_FOUND"),
  // GET /solver-logos/{filename}.
  swap(UnknownSolverLogoError, 404, "NOT_FOUND"),
  // GET /trail (internal listener).
  swap(TrailNotFoundError, 404, "TRAIL_NOT_FOUND"),
  // GET /metrics on the public port.
  swap(MetricsElsewhereError, 404, "NOT_FOUND"),
  // The admin routes of the internal listener (the devnet's solver registry).
  swap(AdminAuthenticationError, 401, "UNAUTHORIZED"),
  swap(SolverConflictError, 409, "VALIDATION_FAILED"),
  swap(SolverNotAddedError, 409, "VALIDATION_FAILED"),
  swap(UnknownSolverError, 404, "SOLVER_NOT_FOUND"),
  swap(ApiKeyNameTakenError, 409, "VALIDATION_FAILED"),
  swap(UnknownApiKeyError, 404, "NOT_FOUND"),
  swap(NoPointsEngineError, 404, "NOT_FOUND"),
  // The dev helpers.
  swap(DevOnlyError, 403, "DEV_ONLY"),
  swap(FaucetError, 500, "INTERNAL"),
  swap(FaucetBundleIncompleteError, 500, "INTERNAL"),
  swap(DevRpcUnavailableError, 500, "INTERNAL"),
  // The points routes (partner envelope).
  partner(NoPointsDataError, 404, "noData"),
  partner(UnknownVaultError, 404, "noResultsFound"),
  partner(DeprecatedPointsRouteError, 410, "pageNotFound"),
  // The points engine's own failures: met by the engine and the CLI, never by a route's request; should one reach a
  // points route, it is the server's failure.
  partner(PointsEngineLeaseLostError, 500, "anErrorOccurred"),
  partner(PointsEngineBusyError, 500, "anErrorOccurred"),
  partner(PointsEngineNotConfiguredError, 500, "anErrorOccurred"),
  partner(PointsEngineConfigChangedError, 500, "anErrorOccurred"),
] as const;

type TableRow = (typeof ERROR_TABLE)[number];
type DomainSwapErrorCode = Extract<TableRow, { envelope: "swap" }>["code"];
export type SwapErrorCode = DomainSwapErrorCode | (typeof FRAMEWORK_SWAP_ERROR_CODES)[number];

/** Every swap-flow code, the table's first (in its order), then the framework's: the OpenAPI document's list. */
export const SWAP_ERROR_CODES = [
  ...new Set<SwapErrorCode>([
    ...ERROR_TABLE.flatMap((row) => (row.envelope === "swap" ? [row.code] : [])),
    ...FRAMEWORK_SWAP_ERROR_CODES,
  ]),
] as [SwapErrorCode, ...SwapErrorCode[]];

const ROWS = new Map<ErrorClass, TableRow>(ERROR_TABLE.map((row) => [row.error, row]));

/** The row of an error class (or of its nearest ancestor in the table). */
export function rowOf(error: ErrorClass): TableRow | undefined {
  for (let current: unknown = error; current; current = Object.getPrototypeOf(current)) {
    const row = ROWS.get(current as ErrorClass);
    if (row) return row;
  }
  return undefined;
}

export type ErrorAnswer =
  | {
      envelope: "swap";
      status: ErrorStatus;
      code: SwapErrorCode;
      message: string;
      details?: BaseError["details"];
      /** Seconds before a retry may succeed (a Retry-After header), for a failure that passes by itself. */
      retryAfterSeconds?: number;
    }
  | { envelope: "partner"; status: ErrorStatus; code: PartnerErrorCode; message: string };

/** How a thrown error is answered, when it is one of the table's; undefined for anything else. */
export function errorAnswer(error: unknown): ErrorAnswer | undefined {
  if (!(error instanceof Error)) return undefined;
  const row = rowOf(error.constructor as ErrorClass);
  if (!row) return undefined;
  const failure = error as BaseError;
  const status = row.statusOf(failure);
  if (row.envelope === "partner")
    return { envelope: "partner", status, code: row.code, message: failure.shortMessage };
  // No details at all: the envelope leaves the key out.
  const details = Object.keys(failure.details).length > 0 ? failure.details : undefined;
  const retryAfterSeconds = "retryAfterOf" in row ? row.retryAfterOf?.(failure) : undefined;
  return {
    envelope: "swap",
    status,
    code: row.code,
    message: failure.shortMessage,
    ...(details ? { details } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

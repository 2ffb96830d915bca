// The two error envelopes of the API and the named error classes behind them.
// Partner routes (registries, points) answer `{errorCode, errorMessage}`; every other route answers
// `{error: {code, message, status, timestamp, details?}}`.
import { z } from "zod";

export const PARTNER_ERROR_CODES = [
  "noData",
  "noResultsFound",
  "anErrorOccurred",
  "pageNotFound",
  "ooops",
] as const;
export type PartnerErrorCode = (typeof PARTNER_ERROR_CODES)[number];

export const SWAP_ERROR_CODES = [
  "VALIDATION_FAILED",
  "UNSUPPORTED_CHAIN",
  "UNSUPPORTED_TOKEN",
  "DUPLICATE_TOKEN",
  "MISSING_FILTER",
  "NO_QUOTES",
  "QUOTE_NOT_FOUND",
  "QUOTE_EXPIRED",
  "QUOTE_UNAVAILABLE",
  "QUOTE_MISMATCH",
  "INVALID_SIGNATURE",
  "UNAUTHORIZED_SIGNER",
  "UNAUTHORIZED",
  "DISCOUNT_REJECTED",
  "DEV_ONLY",
  "NOT_FOUND",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "MALFORMED_REQUEST",
  "HEADERS_TOO_LARGE",
  "REQUEST_TIMEOUT",
  "INTERNAL",
  "SERVICE_UNAVAILABLE",
] as const;
export type SwapErrorCode = (typeof SWAP_ERROR_CODES)[number];

export const PartnerErrorSchema = z
  .object({
    errorCode: z.enum(PARTNER_ERROR_CODES),
    errorMessage: z.string().min(1),
  })
  .strict()
  .meta({ id: "PartnerError" });

export const ValidationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const SwapErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(SWAP_ERROR_CODES),
      message: z.string(),
      status: z.number().int(),
      timestamp: z.iso.datetime(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "SwapError" });

/** An error answered with the partner envelope. */
export class PartnerError extends Error {
  override name = "PartnerError";
  constructor(
    readonly status: number,
    readonly errorCode: PartnerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An error answered with the swap-flow envelope. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: SwapErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export class ValidationError extends ApiError {
  override name = "ValidationError";
  constructor(message: string, issues: ValidationIssue[], extra?: Record<string, unknown>) {
    super(400, "VALIDATION_FAILED", message, { issues, ...extra });
  }
}

/** The answer to a request that needed the database while it could not be reached (503, either envelope). */
export const DATABASE_UNAVAILABLE_MESSAGE = "The database is unavailable; retry later";

export function partnerBody(errorCode: PartnerErrorCode, errorMessage: string) {
  return { errorCode, errorMessage };
}

export function swapBody(
  status: number,
  code: SwapErrorCode,
  message: string,
  details: Record<string, unknown> | undefined,
  now: Date,
) {
  return { error: { code, message, status, timestamp: now.toISOString(), ...(details ? { details } : {}) } };
}

/** Routes under these prefixes belong to the partner API and use its envelope. */
export function isPartnerPath(url: string): boolean {
  return /^\/api\/v1\/(entities|points)(\/|\?|$)/.test(url);
}

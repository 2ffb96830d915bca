// The two error envelopes of the API. Partner routes (registries, points) answer `{errorCode, errorMessage}`; every
// other route answers `{error: {code, message, status, timestamp, details?}}`. Which named error gets which status
// and code is error-table.ts's; which statuses a route can answer, route-answers.ts's.
import { z } from "zod";
import type { ValidationIssue } from "../shared/errors.ts";
import {
  PARTNER_ERROR_CODES,
  type PartnerErrorCode,
  SWAP_ERROR_CODES,
  type SwapErrorCode,
} from "./error-table.ts";

export {
  PARTNER_ERROR_CODES,
  type PartnerErrorCode,
  SWAP_ERROR_CODES,
  type SwapErrorCode,
} from "./error-table.ts";

export const PartnerErrorSchema = z
  .object({
    errorCode: z.enum(PARTNER_ERROR_CODES),
    errorMessage: z.string().min(1),
  })
  .strict()
  .meta({ id: "PartnerError" });

export const ValidationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type { ValidationIssue };

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

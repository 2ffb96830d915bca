// Wire-format building blocks shared by every route. Each is one zod schema, so request validation,
// response types and the OpenAPI document all come from the same definition.

import type { Address } from "viem";
import { z } from "zod";

export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_UINT48 = 2 ** 48 - 1;
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

const ADDRESS_PATTERN = /^0x[a-fA-F0-9]{40}$/;

/**
 * An EVM address: accepted in any case, carried and returned lowercase. `overwrite` (not `transform`) keeps the
 * schema representable in JSON Schema; the cast only tells TypeScript what the lowercasing guarantees.
 */
export const AddressSchema = z
  .string()
  .regex(ADDRESS_PATTERN, "must be 0x followed by 40 hex characters")
  .overwrite((value) => value.toLowerCase())
  .meta({
    description: "EVM address; any case accepted, returned lowercase",
    example: "0x0000000000000000000000000000000000000001",
  }) as unknown as z.ZodType<Address, string>;

/** Lowercases an address read from storage or config; the type says it has been normalised. */
export function normalizeAddress(value: string): Address {
  return value.toLowerCase() as Address;
}

/** A uint256 as a decimal string, checked by value (PostgreSQL would silently round `1.5`). */
export const Uint256StringSchema = z
  .string()
  // abort: zod runs later checks after a failed one, and BigInt("1.5") would throw (a 500, not a 400).
  .regex(/^\d+$/, { message: "must be a decimal integer string", abort: true })
  .refine((value) => value.length <= 78 && BigInt(value) <= MAX_UINT256, "must be at most 2^256 - 1")
  .meta({ description: "uint256 as a decimal string", example: "1000000000000000000" });

/** Digits-only string of any size (points, total supply). */
export const DigitStringSchema = z.string().regex(/^\d+$/, "must contain digits only");

/** A uint48 JSON integer (timestamps, discount deadlines). */
export const Uint48Schema = z.number().int().min(0).max(MAX_UINT48);

/** A chain id as the spec bounds it. */
export const ChainIdSchema = z.number().int().min(1).max(MAX_SAFE_INTEGER);

/** `0x`-prefixed hex of any length (hashes, signatures, calldata). */
export const HexSchema = z.string().regex(/^0x[a-fA-F0-9]*$/, "must be 0x-prefixed hex");

/** A 32-byte hash. */
export const Bytes32Schema = z.string().regex(/^0x[a-fA-F0-9]{64}$/, "must be a 32-byte 0x hex string");

/** ISO 8601 UTC timestamp. */
export const TimestampSchema = z.iso.datetime();

/** A block number in a path segment: an integer, > 0, ≤ 2^53 − 1. */
export const BlockNumberParamSchema = z
  .string()
  .regex(/^\d+$/, "must be a positive integer")
  .transform((value, ctx) => {
    const parsed = Number(value);
    if (parsed < 1 || !Number.isSafeInteger(parsed)) {
      ctx.addIssue({ code: "custom", message: `must be between 1 and ${MAX_SAFE_INTEGER}` });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({ description: "Block number, 1 to 9007199254740991", example: "21000000" });

/**
 * A solver id as a client names one (it may match no solver). Control characters, NUL included, never belong in an
 * id, and PostgreSQL text cannot hold NUL: they are refused here rather than failing in the database.
 */
export const SolverIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^\P{Cc}*$/u, "must not contain control characters");

export const RequestIdSchema = z
  .uuid()
  .meta({ description: "UUID of this HTTP attempt; equals the X-Request-Id header" });

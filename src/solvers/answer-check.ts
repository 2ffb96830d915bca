// A solver's quote answer checked by hand against SolverQuoteResponseSchema: the same acceptance (addresses
// lowercased, unknown keys dropped) and the same first failure as the schema's first issue, named `field: message`,
// for the price of a few comparisons instead of a schema parse on every answer of every round.
import type { Address } from "viem";
import { MAX_SAFE_INTEGER, MAX_UINT256 } from "../shared/wire.ts";
import type { SolverQuoteResponse } from "./protocol.ts";

export type SolverAnswerCheck = { ok: true; answer: SolverQuoteResponse } | { ok: false; detail: string };

const ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const DIGITS = /^\d+$/;
/** uint256's largest value has 78 digits. */
const UINT256_DIGITS = 78;

/** Judges a parsed JSON body: the answer in the schema's shape, or the first field (in schema order) that fails. */
export function checkSolverAnswer(body: unknown): SolverAnswerCheck {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, detail: `: Invalid input: expected object, received ${received(body)}` };
  const fields = body as Record<string, unknown>;
  const failure =
    chainIdFailure("chainId", fields.chainId) ??
    uint256Failure("amountIn", fields.amountIn) ??
    uint256Failure("amountOut", fields.amountOut) ??
    addressFailure("filler", fields.filler) ??
    stringFailure("requestId", fields.requestId) ??
    addressFailure("swapper", fields.swapper) ??
    addressFailure("tokenIn", fields.tokenIn) ??
    addressFailure("tokenOut", fields.tokenOut) ??
    stringFailure("quoteId", fields.quoteId);
  if (failure !== undefined) return { ok: false, detail: failure };
  return {
    ok: true,
    answer: {
      chainId: fields.chainId as number,
      amountIn: fields.amountIn as string,
      amountOut: fields.amountOut as string,
      filler: (fields.filler as string).toLowerCase() as Address,
      requestId: fields.requestId as string,
      swapper: (fields.swapper as string).toLowerCase() as Address,
      tokenIn: (fields.tokenIn as string).toLowerCase() as Address,
      tokenOut: (fields.tokenOut as string).toLowerCase() as Address,
      quoteId: fields.quoteId as string,
    },
  };
}

function chainIdFailure(field: string, value: unknown): string | undefined {
  if (typeof value !== "number") return expected(field, "number", value);
  if (!Number.isInteger(value)) return `${field}: Invalid input: expected int, received number`;
  if (value < 1) return `${field}: Too small: expected number to be >=1`;
  if (value > MAX_SAFE_INTEGER) return `${field}: Too big: expected int to be <=${MAX_SAFE_INTEGER}`;
  return undefined;
}

function uint256Failure(field: string, value: unknown): string | undefined {
  if (typeof value !== "string") return expected(field, "string", value);
  if (!DIGITS.test(value)) return `${field}: must be a decimal integer string`;
  if (value.length > UINT256_DIGITS || BigInt(value) > MAX_UINT256)
    return `${field}: must be at most 2^256 - 1`;
  return undefined;
}

function addressFailure(field: string, value: unknown): string | undefined {
  if (typeof value !== "string") return expected(field, "string", value);
  if (!ADDRESS.test(value)) return `${field}: must be 0x followed by 40 hex characters`;
  return undefined;
}

function stringFailure(field: string, value: unknown): string | undefined {
  return typeof value === "string" ? undefined : expected(field, "string", value);
}

function expected(field: string, type: string, value: unknown): string {
  return `${field}: Invalid input: expected ${type}, received ${received(value)}`;
}

/** A JSON value's type as the schema's messages name it. */
function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

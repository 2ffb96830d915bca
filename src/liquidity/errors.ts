// The failures of POST /liquidity and /liquidity-batch: input tokens it cannot report on.
import type { Address } from "viem";
import { BaseError } from "../shared/errors.ts";

/** Input tokens that are unsupported or have no liquidity output token; the first one is named. */
export class UnsupportedLiquidityTokenError extends BaseError {
  override name = "UnsupportedLiquidityTokenError";
  constructor(tokens: ReadonlyArray<{ token: Address; path: string; message: string }>) {
    const first = tokens[0]!;
    super(`${first.token} ${first.message}`, {
      details: {
        token: first.token,
        tokens: tokens.map((t) => t.token),
        issues: tokens.map(({ path, message }) => ({ path, message })),
      },
    });
  }
}

/** A batch that lists one input token twice. */
export class DuplicateTokenError extends BaseError {
  override name = "DuplicateTokenError";
  constructor(token: Address, path: string, firstPath: string) {
    super(`${token} is listed more than once`, {
      details: { token, issues: [{ path, message: `duplicate of ${firstPath}` }] },
    });
  }
}

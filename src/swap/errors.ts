// The failures of a quote request that the schema alone cannot catch, and of a quote round with nothing to offer.
import type { Address } from "viem";
import { BaseError, type ValidationIssue } from "../shared/errors.ts";

/** A chain id that is not the deployment's. */
export class UnsupportedChainError extends BaseError {
  override name = "UnsupportedChainError";
  constructor(field: string, chainId: number, deploymentChainId: number) {
    super(`${field} ${chainId} is not this deployment's chain ${deploymentChainId}`, {
      details: { issues: [{ path: field, message: `must be ${deploymentChainId}` }] },
    });
  }
}

/** A token the deployment does not swap from (`input`) or into (`output`). */
export class UnsupportedTokenError extends BaseError {
  override name = "UnsupportedTokenError";
  constructor(
    readonly token: Address,
    field: string,
    side: "input" | "output",
  ) {
    super(`${token} is not a supported ${side} token`, {
      details: { token, issues: [{ path: field, message: `not a supported ${side} token` }] },
    });
  }
}

/** Outputs that do not repeat tokenOut, leave no remainder or take all of it in fees. */
export class InvalidOutputsError extends BaseError {
  override name = "InvalidOutputsError";
  constructor(issues: ValidationIssue[]) {
    super("Invalid outputs", { details: { issues } });
  }
}

/**
 * A quote round that produced no quote (below the minimum, no eligible solver, no non-zero answer). Below the
 * minimum, the details say what the minimum is, so a wallet can show it (in base units of `tokenIn`, and with
 * `decimals` to format it).
 */
export class NoQuotesError extends BaseError {
  override name = "NoQuotesError";
  constructor(
    reason: string,
    minimum?: { tokenIn: string; symbol: string; decimals: number; minimumAmount: bigint },
  ) {
    super("No quotes available", {
      details: minimum
        ? {
            reason,
            tokenIn: minimum.tokenIn,
            symbol: minimum.symbol,
            decimals: minimum.decimals,
            minimumAmount: minimum.minimumAmount.toString(),
          }
        : { reason },
    });
  }
}

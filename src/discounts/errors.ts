// The failures of POST /discount and of the internal discount API, each a named error (DESIGN.md §5); their statuses
// are the HTTP layer's (http/error-table.ts).
import type { Address, Hex } from "viem";
import type { SignatureFault } from "../chain/signature-check.ts";
import { BaseError } from "../shared/errors.ts";
import { SOLVER_ID_HEADER, SOLVER_SECRET_HEADER } from "./schemas.ts";

export const DISCOUNT_REJECTION_REASONS = [
  "wrong_protocol",
  "unknown_adapter",
  "unsupported_token",
  "below_min_discount",
  "above_max_discount",
  "nonce_used",
  "expired",
  "cancelled",
  "replayed_cancel",
] as const;
export type DiscountRejectionReason = (typeof DISCOUNT_REJECTION_REASONS)[number];

/** A discount (or cancel) the rules refuse; `reason` says which rule. */
export class DiscountRejectedError extends BaseError {
  override name = "DiscountRejectedError";
  constructor(
    readonly reason: DiscountRejectionReason,
    message: string,
  ) {
    super(message, { details: { reason } });
  }
}

export class InvalidDiscountSignatureError extends BaseError {
  override name = "InvalidDiscountSignatureError";
  constructor(signer: Address, reason: SignatureFault) {
    super("The signature is not the signer's over this Discount, in a form the adapter accepts", {
      details: { signer, reason },
    });
  }
}

export class UnauthorizedSignerError extends BaseError {
  override name = "UnauthorizedSignerError";
  constructor(signer: Address, adapter: Address) {
    super("The signer is not authorized on the adapter", { details: { signer, adapter } });
  }
}

/** Missing or wrong solver credentials on the internal discount API. */
export class SolverAuthenticationError extends BaseError {
  override name = "SolverAuthenticationError";
  constructor() {
    super(
      `A configured solver id (${SOLVER_ID_HEADER}) and its secret (${SOLVER_SECRET_HEADER}) are required`,
    );
  }
}

/** A real solver that may not use the internal discount API: an external or a disabled one. */
export class SolverForbiddenError extends BaseError {
  override name = "SolverForbiddenError";
  constructor(solverId: string, reason: "external_solver" | "disabled_solver") {
    super("Only enabled internal solvers may use discounts", { details: { solverId, reason } });
  }
}

/** A discount id that is unknown or not live at the latest block (`reason` says which). */
export class DiscountNotLiveError extends BaseError {
  override name = "DiscountNotLiveError";
  constructor(selector: Hex | { adapter: Address; tokenToRedeem: Address }, reason: string) {
    const details = typeof selector === "string" ? { discountId: selector } : selector;
    super(
      typeof selector === "string"
        ? "No live discount has this id"
        : "No live discount for this adapter and token",
      { details: { ...details, reason } },
    );
  }
}

// The failures of POST /discount, each a named error with its status and code (DESIGN.md §5).
import type { Address } from "viem";
import type { SignatureFault } from "../chain/signature-check.ts";
import { ApiError } from "../http/errors.ts";

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

/** Conflicts with stored or on-chain state answer 409; a request that can never be accepted answers 400. */
const REJECTION_STATUS: Record<DiscountRejectionReason, 400 | 409> = {
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

export class DiscountRejectedError extends ApiError {
  override name = "DiscountRejectedError";
  constructor(
    readonly reason: DiscountRejectionReason,
    message: string,
  ) {
    super(REJECTION_STATUS[reason], "DISCOUNT_REJECTED", message, { reason });
  }
}

export class InvalidDiscountSignatureError extends ApiError {
  override name = "InvalidDiscountSignatureError";
  constructor(signer: Address, reason: SignatureFault) {
    super(
      400,
      "INVALID_SIGNATURE",
      "The signature is not the signer's over this Discount, in a form the adapter accepts",
      {
        signer,
        reason,
      },
    );
  }
}

export class UnauthorizedSignerError extends ApiError {
  override name = "UnauthorizedSignerError";
  constructor(signer: Address, adapter: Address) {
    super(403, "UNAUTHORIZED_SIGNER", "The signer is not authorized on the adapter", { signer, adapter });
  }
}

// When a stored discount may be offered as a leg (DESIGN.md §4): deadline in the future, nonce unused on-chain,
// signer still authorized, discount between the adapter's current minDiscount and 100 %, signed for this
// deployment's protocol, on an adapter that accepts the token. One pure rule, used when a discount is published,
// when legs are offered, when a solver resolves one and when the expiry worker sweeps the store.
import { type Address, isAddressEqual } from "viem";
import type { Discount } from "../chain/order.ts";

export const PPM = 1_000_000n;

/** What the chain says about a discount at one block. */
export interface DiscountChainFacts {
  blockTimestamp: bigint;
  acceptsTokenIn: boolean;
  minDiscountPpm: bigint;
  /** Owner, market maker or `isFiller(marketMaker, signer)` on the adapter. */
  signerAuthorized: boolean;
  /** `isUsedNonce(tokenToRedeem, nonce)`: used by a swap or invalidated. */
  nonceUsed: boolean;
}

export type DiscountFault =
  | "wrong_protocol"
  | "above_max_discount"
  | "unsupported_token"
  | "unauthorized_signer"
  | "below_min_discount"
  | "expired"
  | "nonce_used";

/** Faults that can never heal: a discount with one of them leaves the store. */
export const PERMANENT_FAULTS: ReadonlySet<DiscountFault> = new Set(["expired", "nonce_used"]);

/** Every fault of the discount at the facts' block, in the order a publisher is told about them; [] = live. */
export function discountFaults(
  discount: Discount,
  facts: DiscountChainFacts,
  protocolSigner: Address,
): DiscountFault[] {
  const faults: DiscountFault[] = [];
  if (!isAddressEqual(discount.protocol, protocolSigner)) faults.push("wrong_protocol");
  if (discount.discount > PPM) faults.push("above_max_discount");
  if (!facts.acceptsTokenIn) faults.push("unsupported_token");
  if (!facts.signerAuthorized) faults.push("unauthorized_signer");
  if (discount.discount < facts.minDiscountPpm) faults.push("below_min_discount");
  // The adapter accepts a discount swap while block.timestamp ≤ deadline; "in the future" keeps one block's margin.
  if (BigInt(discount.deadline) <= facts.blockTimestamp) faults.push("expired");
  if (facts.nonceUsed) faults.push("nonce_used");
  return faults;
}

// A signed discount as Sluice holds it: the adapter it is for, the EIP-712 `Discount` the signer signed, the
// signature, and its id (the digest). Conversions between the stored row and the chain type live here.
import type { Address, Hex } from "viem";
import type { Discount } from "../chain/order.ts";
import type { discounts } from "./tables.ts";

export interface SignedDiscount {
  adapter: Address;
  discount: Discount;
  signature: Hex;
}

export interface StoredDiscount extends SignedDiscount {
  discountId: Hex;
  publishedAt: Date;
}

type DiscountRow = typeof discounts.$inferSelect;

export function fromRow(row: DiscountRow): StoredDiscount {
  return {
    adapter: row.adapter as Address,
    discountId: row.discountId as Hex,
    discount: {
      tokenToRedeem: row.tokenToRedeem as Address,
      discount: BigInt(row.discountPpm),
      signer: row.signer as Address,
      protocol: row.protocol as Address,
      nonce: BigInt(row.nonce),
      deadline: row.deadline,
    },
    signature: row.signature as Hex,
    publishedAt: row.publishedAt,
  };
}

export function toRow(stored: StoredDiscount): DiscountRow {
  const { discount } = stored;
  return {
    adapter: stored.adapter,
    tokenToRedeem: discount.tokenToRedeem,
    discountId: stored.discountId,
    discountPpm: discount.discount.toString(),
    signer: discount.signer,
    protocol: discount.protocol,
    nonce: discount.nonce.toString(),
    deadline: discount.deadline,
    signature: stored.signature,
    publishedAt: stored.publishedAt,
  };
}

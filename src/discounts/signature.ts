// Whether a signature over a Discount is its signer's, judged as the adapter judges it (OpenZeppelin
// SignatureChecker): an ECDSA signature recovering to the signer, or, when the signer is a contract, ERC-1271; with
// the bytes to store and hand to solvers (an EOA's signature in its canonical 65-byte form).
import type { Hex } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import { type AdapterRef, type Discount, discountId } from "../chain/order.ts";
import { checkSignature, type SignatureCheck } from "../chain/signature-check.ts";

export function checkDiscountSignature(
  client: Pick<ChainPublicClient, "getCode" | "call">,
  ref: AdapterRef,
  discount: Discount,
  signature: Hex,
): Promise<SignatureCheck> {
  return checkSignature(client, discount.signer, discountId(ref, discount), signature);
}

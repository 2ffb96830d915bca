// Whether a signature over a Discount is its signer's, judged as the adapter judges it (OpenZeppelin
// SignatureChecker): an ECDSA signature recovering to the signer, or, when the signer is a contract, ERC-1271.
import type { Hex } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import { type AdapterRef, type Discount, discountId } from "../chain/order.ts";
import { isSignatureOf } from "../chain/signature-check.ts";

export function isDiscountSignature(
  client: Pick<ChainPublicClient, "getCode" | "readContract">,
  ref: AdapterRef,
  discount: Discount,
  signature: Hex,
): Promise<boolean> {
  return isSignatureOf(client, discount.signer, discountId(ref, discount), signature);
}

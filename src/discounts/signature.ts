// Whether a signature over a Discount is its signer's, judged as the adapter judges it (OpenZeppelin
// SignatureChecker): an ECDSA signature recovering to the signer, or, when the signer is a contract, ERC-1271.
import { type Hex, isAddressEqual, recoverAddress } from "viem";
import type { ChainPublicClient } from "../chain/client.ts";
import { type AdapterRef, type Discount, discountId } from "../chain/order.ts";

const ERC1271_MAGIC_VALUE = "0x1626ba7e";

const erc1271Abi = [
  {
    type: "function",
    name: "isValidSignature",
    stateMutability: "view",
    inputs: [
      { name: "hash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [{ name: "", type: "bytes4" }],
  },
] as const;

export async function isDiscountSignature(
  client: Pick<ChainPublicClient, "getCode" | "readContract">,
  ref: AdapterRef,
  discount: Discount,
  signature: Hex,
): Promise<boolean> {
  const digest = discountId(ref, discount);
  // An EOA's signature is checked locally; only a non-matching one costs chain reads.
  try {
    if (isAddressEqual(await recoverAddress({ hash: digest, signature }), discount.signer)) return true;
  } catch {
    // Not a 65-byte ECDSA signature: it may still be a contract signer's.
  }
  const code = await client.getCode({ address: discount.signer });
  if (!code || code === "0x") return false;
  try {
    const magic = await client.readContract({
      address: discount.signer,
      abi: erc1271Abi,
      functionName: "isValidSignature",
      args: [digest, signature],
    });
    return magic.toLowerCase() === ERC1271_MAGIC_VALUE;
  } catch {
    return false;
  }
}

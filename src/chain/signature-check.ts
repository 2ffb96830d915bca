// Whether a signature over a digest is a given signer's, judged as OpenZeppelin's SignatureChecker judges it on-chain:
// an ECDSA signature recovering to the signer, or, when the signer is a contract, its ERC-1271 `isValidSignature`.
import { type Address, type Hex, isAddressEqual, recoverAddress } from "viem";
import type { ChainPublicClient } from "./client.ts";

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

export async function isSignatureOf(
  client: Pick<ChainPublicClient, "getCode" | "readContract">,
  signer: Address,
  digest: Hex,
  signature: Hex,
): Promise<boolean> {
  // An EOA's signature is checked locally; only a non-matching one costs chain reads.
  try {
    if (isAddressEqual(await recoverAddress({ hash: digest, signature }), signer)) return true;
  } catch {
    // Not an ECDSA signature: it may still be a contract signer's.
  }
  const code = await client.getCode({ address: signer });
  if (!code || code === "0x") return false;
  try {
    const magic = await client.readContract({
      address: signer,
      abi: erc1271Abi,
      functionName: "isValidSignature",
      args: [digest, signature],
    });
    return magic.toLowerCase() === ERC1271_MAGIC_VALUE;
  } catch {
    return false;
  }
}

// Whether a signature over a digest is a given signer's, judged as OpenZeppelin's SignatureChecker judges it on-chain
// (the Reactor and the adapter use it): a signer with code answers through ERC-1271 `isValidSignature`, given the
// submitted bytes unchanged; a signer without code needs an ECDSA signature recovering to it, in the one form
// OpenZeppelin's ECDSA accepts (ecdsa-signature.ts). The accepted bytes are what gets stored and sent on-chain.
import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  RawContractError,
  recoverAddress,
} from "viem";
import type { ChainPublicClient } from "./client.ts";
import { canonicalEcdsaSignature, type EcdsaSignatureFault, isWholeBytes } from "./ecdsa-signature.ts";

/** The answer word SignatureChecker requires: the `isValidSignature` selector, left-aligned in 32 bytes. */
const ERC1271_MAGIC_WORD = `0x1626ba7e${"0".repeat(56)}`;

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

export type SignatureFault = EcdsaSignatureFault | "not_the_signer" | "refused_by_contract";

export type SignatureCheck =
  /**
   * `signature`: the bytes to store and send on-chain (an EOA's in its canonical 65-byte form); `by`: how it was
   * judged (ECDSA for a signer without code, ERC-1271 for one with code).
   */
  { valid: true; signature: Hex; by: "ecdsa" | "erc1271" } | { valid: false; fault: SignatureFault };

export async function checkSignature(
  client: Pick<ChainPublicClient, "getCode" | "call">,
  signer: Address,
  digest: Hex,
  signature: Hex,
): Promise<SignatureCheck> {
  if (!isWholeBytes(signature)) return { valid: false, fault: "odd_length" };
  // The code decides, as on-chain: an address with code (a contract, or an EIP-7702 delegated account) never
  // answers through ECDSA.
  const code = await client.getCode({ address: signer });
  if (code && code !== "0x") {
    const bytes = signature.toLowerCase() as Hex;
    return (await isValidErc1271Signature(client, signer, digest, bytes))
      ? { valid: true, signature: bytes, by: "erc1271" }
      : { valid: false, fault: "refused_by_contract" };
  }
  const canonical = canonicalEcdsaSignature(signature);
  if ("fault" in canonical) return { valid: false, fault: canonical.fault };
  try {
    if (isAddressEqual(await recoverAddress({ hash: digest, signature: canonical.signature }), signer)) {
      return { valid: true, signature: canonical.signature, by: "ecdsa" };
    }
  } catch {
    // r or s out of range, or no point for r: ecrecover fails on-chain too.
  }
  return { valid: false, fault: "not_the_signer" };
}

/** SignatureChecker's test: the call succeeds and its first 32 bytes of return data are exactly the magic word. */
async function isValidErc1271Signature(
  client: Pick<ChainPublicClient, "call">,
  signer: Address,
  digest: Hex,
  signature: Hex,
): Promise<boolean> {
  try {
    const { data } = await client.call({
      to: signer,
      data: encodeFunctionData({
        abi: erc1271Abi,
        functionName: "isValidSignature",
        args: [digest, signature],
      }),
    });
    return data !== undefined && data.slice(0, 66).toLowerCase() === ERC1271_MAGIC_WORD;
  } catch (error) {
    // A revert is a refusal, as on-chain; a failed RPC call is no answer at all.
    if (isRevert(error)) return false;
    throw error;
  }
}

function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ExecutionRevertedError || cause instanceof RawContractError) !==
      null
  );
}

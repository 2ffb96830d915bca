// The chain reads the swap flow makes on the request path: allowances, the Reactor's nonce bitmap, and whether a
// signature over a Request is the swapper's (ECDSA, or ERC-1271 when the swapper is a contract).
import { type Address, type Hex, isAddressEqual, recoverTypedDataAddress } from "viem";
import { erc20Abi, reactorAbi } from "./abis.ts";
import type { ChainPublicClient } from "./client.ts";
import { reactorDomain, requestTypes } from "./eip712.ts";
import { type ReactorRef, type Request, requestDigest } from "./order.ts";

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

export interface SwapChain {
  allowance(token: Address, owner: Address, spender: Address): Promise<bigint>;
  isNonceUsed(swapper: Address, nonce: bigint): Promise<boolean>;
  isSwapperSignature(swapper: Address, request: Request, signature: Hex): Promise<boolean>;
}

export class ViemSwapChain implements SwapChain {
  constructor(
    private readonly client: ChainPublicClient,
    private readonly reactor: ReactorRef,
  ) {}

  allowance(token: Address, owner: Address, spender: Address): Promise<bigint> {
    return this.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner, spender],
    });
  }

  isNonceUsed(swapper: Address, nonce: bigint): Promise<boolean> {
    return this.client.readContract({
      address: this.reactor.reactor,
      abi: reactorAbi,
      functionName: "isUsedNonce",
      args: [swapper, nonce],
    });
  }

  async isSwapperSignature(swapper: Address, request: Request, signature: Hex): Promise<boolean> {
    // An EOA's signature is checked locally; only a non-matching one costs chain reads.
    try {
      const recovered = await recoverTypedDataAddress({
        domain: reactorDomain(this.reactor.chainId, this.reactor.reactor),
        types: requestTypes,
        primaryType: "Request",
        message: request,
        signature,
      });
      if (isAddressEqual(recovered, swapper)) return true;
    } catch {
      // Not a 65-byte ECDSA signature: it may still be a contract wallet's.
    }
    const code = await this.client.getCode({ address: swapper });
    if (!code || code === "0x") return false;
    try {
      const magic = await this.client.readContract({
        address: swapper,
        abi: erc1271Abi,
        functionName: "isValidSignature",
        args: [requestDigest(this.reactor, request), signature],
      });
      return magic.toLowerCase() === ERC1271_MAGIC_VALUE;
    } catch {
      return false;
    }
  }
}

// The chain reads the swap flow makes on the request path: allowances, the Reactor's nonce bitmap, and whether a
// signature over a Request is the swapper's (ECDSA, or ERC-1271 when the swapper is a contract), as the Reactor checks,
// with the bytes the Reactor will be given.
import type { Address, Hex } from "viem";
import { erc20Abi, reactorAbi } from "./abis.ts";
import type { ChainPublicClient } from "./client.ts";
import { type ReactorRef, type Request, requestDigest } from "./order.ts";
import { checkSignature, type SignatureCheck } from "./signature-check.ts";

export interface SwapChain {
  allowance(token: Address, owner: Address, spender: Address): Promise<bigint>;
  isNonceUsed(swapper: Address, nonce: bigint): Promise<boolean>;
  checkSwapperSignature(swapper: Address, request: Request, signature: Hex): Promise<SignatureCheck>;
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

  checkSwapperSignature(swapper: Address, request: Request, signature: Hex): Promise<SignatureCheck> {
    return checkSignature(this.client, swapper, requestDigest(this.reactor, request), signature);
  }
}

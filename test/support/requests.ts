// What a swapper's wallet does with a Request, which Sluice itself never does: signing it (EIP-712, the Reactor's
// domain) and its struct hash (as the contracts compute it).
import { type Hex, hashStruct } from "viem";
import { reactorDomain, requestTypes } from "../../src/chain/eip712.ts";
import type { ReactorRef, Request, TypedDataSigner } from "../../src/chain/order.ts";

/** EIP-712 struct hash of a Request. */
export function hashRequest(request: Request): Hex {
  return hashStruct({ types: requestTypes, primaryType: "Request", data: request });
}

export function signRequest(signer: TypedDataSigner, ref: ReactorRef, request: Request): Promise<Hex> {
  return signer.signTypedData({
    domain: reactorDomain(ref.chainId, ref.reactor),
    types: requestTypes,
    primaryType: "Request",
    message: request,
  });
}

// The `signatureData` of a quote entry: EIP-712 typed data, uint256 values as decimal strings. `types` holds `Request`
// and `Output` only, as the real backend returns them, so every common library signs it as-is (ethers v6's
// `signTypedData(domain, types, value)` throws "ambiguous primary types" when `EIP712Domain` is among the types). A raw
// `eth_signTypedData_v4` call needs `EIP712Domain` added from the domain's fields, as viem and ethers do for it.
import type { Address } from "viem";
import { requestTypes } from "../chain/eip712.ts";
import type { Request } from "../chain/order.ts";

/** A Request's values as signatureData carries them: uint256 values as decimal strings. */
export interface SignedRequestText {
  tokenIn: Address;
  amountIn: string;
  outputs: Array<{ token: Address; amount: string; recipient: Address }>;
  deadline: string;
  nonce: string;
  protocol: Address;
}

export type SignatureDataParts = ReturnType<typeof signatureDataParts>;

/** What every entry of one deployment shares (the domain, the types): built once, not per entry. */
export function signatureDataParts(domain: {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: Address;
}) {
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: Number(domain.chainId),
      verifyingContract: domain.verifyingContract,
    },
    types: {
      Request: requestTypes.Request.map((field) => ({ ...field })),
      Output: requestTypes.Output.map((field) => ({ ...field })),
    },
  };
}

/** One entry's signatureData from the shared parts and its values, already text. */
export function signatureDataOf(parts: SignatureDataParts, value: SignedRequestText) {
  return { domain: parts.domain, types: parts.types, primaryType: "Request" as const, value };
}

export function signatureDataFor(
  domain: { name: string; version: string; chainId: bigint; verifyingContract: Address },
  request: Request,
) {
  return signatureDataOf(signatureDataParts(domain), {
    tokenIn: request.tokenIn,
    amountIn: request.amountIn.toString(),
    outputs: request.outputs.map((output) => ({
      token: output.token,
      amount: output.amount.toString(),
      recipient: output.recipient,
    })),
    deadline: request.deadline.toString(),
    nonce: request.nonce.toString(),
    protocol: request.protocol,
  });
}

// The `signatureData` of a quote entry: EIP-712 typed data for eth_signTypedData_v4, uint256 values as decimal strings.
import type { Address } from "viem";
import { requestTypes } from "../chain/eip712.ts";
import type { Request } from "../chain/order.ts";

const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

export function signatureDataFor(
  domain: { name: string; version: string; chainId: bigint; verifyingContract: Address },
  request: Request,
) {
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: Number(domain.chainId),
      verifyingContract: domain.verifyingContract,
    },
    // Wallets that implement eth_signTypedData_v4 strictly want EIP712Domain listed with the other types.
    types: {
      EIP712Domain: EIP712_DOMAIN_TYPE,
      Request: requestTypes.Request.map((field) => ({ ...field })),
      Output: requestTypes.Output.map((field) => ({ ...field })),
    },
    primaryType: "Request" as const,
    value: {
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
    },
  };
}

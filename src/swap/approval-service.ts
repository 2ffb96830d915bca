// POST /check_approval: the ERC-20 transactions a wallet must send so the Reactor may pull `amount` of the token.
import { type Address, encodeFunctionData, maxUint256 } from "viem";
import { erc20Abi } from "../chain/abis.ts";
import type { Market } from "../market/market.ts";
import { assertChain, findInputToken } from "./terms.ts";

export interface ApprovalTransactions {
  cancel: { to: Address; data: `0x${string}`; value: "0" } | null;
  approval: { to: Address; data: `0x${string}`; value: "0" } | null;
}

export async function checkApproval(
  context: Pick<Market, "deployment" | "chain">,
  input: { walletAddress: Address; chainId: number; token: Address; amount: string },
): Promise<ApprovalTransactions> {
  assertChain(context.deployment, input.chainId, "chainId");
  const token = findInputToken(context.deployment, input.token, "token");
  const reactor = context.deployment.reactor;
  const allowance = await context.chain.allowance(token.address, input.walletAddress, reactor);
  if (allowance >= BigInt(input.amount)) return { cancel: null, approval: null };

  const approve = (value: bigint) => ({
    to: token.address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [reactor, value] }),
    value: "0" as const,
  });
  // Tokens like USDT refuse to change a nonzero allowance to another nonzero value: reset it to zero first.
  return { cancel: allowance > 0n ? approve(0n) : null, approval: approve(maxUint256) };
}

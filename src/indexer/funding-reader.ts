// What the reconciler needs to know about open orders at one block, read in one multicall: the swapper's balance and
// allowance of tokenIn (for the Reactor) and whether the order's nonce is used.
import type { Address } from "viem";
import { erc20Abi, reactorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";

export interface FundingQuery {
  swapper: Address;
  tokenIn: Address;
  nonce: bigint;
}

export interface FundingState {
  balance: bigint;
  allowance: bigint;
  nonceUsed: boolean;
}

export class FundingReader {
  constructor(
    private readonly client: ChainPublicClient,
    private readonly reactor: Address,
    private readonly multicallAddress?: Address,
  ) {}

  /** One state per query; null where a read failed (a token that reverts must not stop the indexer). */
  async read(queries: readonly FundingQuery[], blockNumber: bigint): Promise<Array<FundingState | null>> {
    if (queries.length === 0) return [];
    const contracts = queries.flatMap((query) => [
      { address: query.tokenIn, abi: erc20Abi, functionName: "balanceOf", args: [query.swapper] } as const,
      {
        address: query.tokenIn,
        abi: erc20Abi,
        functionName: "allowance",
        args: [query.swapper, this.reactor],
      } as const,
      {
        address: this.reactor,
        abi: reactorAbi,
        functionName: "isUsedNonce",
        args: [query.swapper, query.nonce],
      } as const,
    ]);
    const results = await this.client.multicall({
      contracts,
      allowFailure: true,
      blockNumber,
      batchSize: 0,
      ...(this.multicallAddress ? { multicallAddress: this.multicallAddress } : { deployless: true }),
    });
    return queries.map((_, index) => {
      const [balance, allowance, nonceUsed] = [
        results[index * 3],
        results[index * 3 + 1],
        results[index * 3 + 2],
      ];
      if (balance?.status !== "success" || allowance?.status !== "success" || nonceUsed?.status !== "success")
        return null;
      return {
        balance: balance.result as bigint,
        allowance: allowance.result as bigint,
        nonceUsed: nonceUsed.result as boolean,
      };
    });
  }
}

// Many view calls at one block in as few eth_calls as the chain allows: a Multicall3 where the chain has one, else
// viem's deployless multicall, whose creation code EIP-3860 caps (so at most DEPLOYLESS_CALLS reads per eth_call).
import type { Abi, Address } from "viem";
import type { ChainPublicClient } from "../../chain/client.ts";

const DEPLOYLESS_CALLS = 64;

export interface ViewCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

export type ViewResult = { status: "success"; result: unknown } | { status: "failure"; error: Error };

export async function readViews(
  client: ChainPublicClient,
  calls: readonly ViewCall[],
  blockNumber: bigint,
): Promise<ViewResult[]> {
  if (calls.length === 0) return [];
  const multicallAddress = client.chain?.contracts?.multicall3?.address;
  const size = multicallAddress ? calls.length : DEPLOYLESS_CALLS;
  const chunks: ViewCall[][] = [];
  for (let start = 0; start < calls.length; start += size) chunks.push(calls.slice(start, start + size));
  const answers = await Promise.all(
    chunks.map((contracts) =>
      client.multicall({
        contracts: contracts as never,
        allowFailure: true,
        batchSize: 0,
        blockNumber,
        ...(multicallAddress ? { multicallAddress } : { deployless: true }),
      }),
    ),
  );
  return answers.flat() as ViewResult[];
}

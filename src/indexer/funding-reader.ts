// What the reconciler needs to know about open orders at one block, read in one multicall: the swapper's balance and
// allowance of tokenIn (for the Reactor), whether the order's nonce is used, and whether each output token accepts a
// transfer to its recipient (a token that refuses the recipient makes every fill revert, whoever fills).

import { AbiDecodingZeroDataError, type Address, BaseError } from "viem";
import { erc20Abi, erc20TransferProbeAbi, reactorAbi } from "../chain/abis.ts";
import type { ChainPublicClient } from "../chain/client.ts";
import { answeredResults } from "../chain/unavailable.ts";

export interface FundingQuery {
  swapper: Address;
  tokenIn: Address;
  nonce: bigint;
  outputs: ReadonlyArray<{ token: Address; recipient: Address }>;
}

export interface FundingState {
  balance: bigint;
  allowance: bigint;
  nonceUsed: boolean;
  /**
   * The first output recipient its token refuses a transfer to: a zero-amount transfer reverted or returned false (a
   * token that returns nothing, like USDT, accepts when it does not revert).
   */
  refusedRecipient: Address | null;
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
    // Each (token, recipient) pair is probed once, however many orders pay it (a fee recipient is in most).
    const probeKey = (output: { token: Address; recipient: Address }) =>
      `${output.token.toLowerCase()} ${output.recipient.toLowerCase()}`;
    const probes = new Map(
      queries.flatMap((query) => query.outputs.map((output) => [probeKey(output), output])),
    );
    const contracts = [
      ...queries.flatMap((query) => [
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
      ]),
      // Sent from the multicall contract, which holds nothing: a zero-amount transfer tests the recipient alone.
      ...[...probes.values()].map(
        (output) =>
          ({
            address: output.token,
            abi: erc20TransferProbeAbi,
            functionName: "transfer",
            args: [output.recipient, 0n],
          }) as const,
      ),
    ];
    const results = answeredResults(
      await this.client.multicall({
        contracts,
        allowFailure: true,
        blockNumber,
        batchSize: 0,
        ...(this.multicallAddress ? { multicallAddress: this.multicallAddress } : { deployless: true }),
      }),
    );
    const probed = new Map(
      [...probes.keys()].map((key, index) => [key, results[queries.length * 3 + index]]),
    );
    return queries.map((query, index) => {
      const [balance, allowance, nonceUsed] = results.slice(index * 3, index * 3 + 3);
      if (balance?.status !== "success" || allowance?.status !== "success" || nonceUsed?.status !== "success")
        return null;
      const refused = query.outputs.find((output) => !accepted(probed.get(probeKey(output))));
      return {
        balance: balance.result as bigint,
        allowance: allowance.result as bigint,
        nonceUsed: nonceUsed.result as boolean,
        refusedRecipient: refused?.recipient ?? null,
      };
    });
  }
}

function accepted(
  probe: { status: "success"; result: unknown } | { status: "failure"; error: Error } | undefined,
) {
  if (!probe) return false;
  if (probe.status === "success") return probe.result === true;
  return (
    probe.error instanceof BaseError &&
    probe.error.walk((cause) => cause instanceof AbiDecodingZeroDataError) !== null
  );
}

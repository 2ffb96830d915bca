// The on-chain state at the end of one block, read through the contracts' own views (not from events): each vault's
// activeStake, activeShares and its stakers' activeSharesOf, each delegator's stake(subnetwork, operator) for every
// subnetwork in scope and every operator named, each feed's latestRoundData answer. Batched by multicall at that
// block. `points verify` replays the points from these states, a path independent of the log reader and the ledger.
import type { Address } from "viem";
import type { ChainPublicClient } from "../../chain/client.ts";
import type { ChainState, ChainStateParticipants } from "../model.ts";
import { networkRestakeDelegatorAbi, priceFeedAbi, vaultAbi } from "./abis.ts";
import { ScopeContractError } from "./errors.ts";
import { readViews, type ViewCall } from "./multicall.ts";
import type { ChainScope } from "./scope.ts";

export async function readChainState(
  client: ChainPublicClient,
  scope: ChainScope,
  participants: ChainStateParticipants,
  block: bigint,
): Promise<ChainState> {
  const lower = (a: string) => a.toLowerCase() as Address;
  const stakersOf = new Map(participants.stakers.map((s) => [lower(s.vault), s.stakers.map(lower)]));
  const delegatorOf = new Map(scope.delegators.map((d) => [lower(d.vault), d.delegator]));
  const subnetworks = scope.networks.flatMap((n) => n.subnetworks);
  const operators = participants.operators.map(lower);

  const calls: ViewCall[] = [];
  const vaultReads = scope.vaults.map((v) => {
    const stakers = stakersOf.get(lower(v.address)) ?? [];
    calls.push(
      { address: v.address, abi: vaultAbi, functionName: "activeStake" },
      { address: v.address, abi: vaultAbi, functionName: "activeShares" },
      ...stakers.map((staker) => ({
        address: v.address,
        abi: vaultAbi,
        functionName: "activeSharesOf",
        args: [staker],
      })),
    );
    return { vault: lower(v.address), stakers };
  });
  const stakeReads = scope.vaults.flatMap((v) =>
    subnetworks.flatMap((subnetwork) =>
      operators.map((operator) => {
        const delegator = delegatorOf.get(lower(v.address));
        if (!delegator)
          throw new ScopeContractError(`vault ${v.address} has no delegator in the scope`, {
            vault: v.address,
          });
        calls.push({
          address: delegator,
          abi: networkRestakeDelegatorAbi,
          functionName: "stake",
          args: [subnetwork, operator],
        });
        return { subnetwork, vault: lower(v.address), operator };
      }),
    ),
  );
  for (const feed of scope.priceFeeds)
    calls.push({ address: feed.feed, abi: priceFeedAbi, functionName: "latestRoundData" });

  const [results, header] = await Promise.all([
    readViews(client, calls, block),
    client.getBlock({ blockNumber: block }),
  ]);
  let index = 0;
  const take = (what: string): unknown => {
    const result = results[index];
    const call = calls[index++]!;
    if (result?.status !== "success")
      throw new ScopeContractError(`${what} could not be read at block ${block}`, {
        contract: call.address,
        call: call.functionName,
      });
    return result.result;
  };
  const vaults = vaultReads.map(({ vault, stakers }) => ({
    vault,
    activeStake: take("activeStake()") as bigint,
    activeShares: take("activeShares()") as bigint,
    stakers: stakers.map((staker) => ({ staker, shares: take("activeSharesOf()") as bigint })),
  }));
  const stakes = stakeReads.map((read) => ({ ...read, stake: take("stake()") as bigint }));
  const prices = scope.priceFeeds.map((feed) => ({
    collateral: lower(feed.collateral),
    answer: (take("latestRoundData()") as readonly bigint[])[1]!,
  }));
  return { block, timestamp: header.timestamp, vaults, stakes, prices };
}

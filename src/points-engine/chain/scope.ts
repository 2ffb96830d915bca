// The points engine's scope read from the chain at one block: for each configured vault its collateral, the
// collateral's decimals, its delegator and the delegator's type (and operator, for an operator-specific one); for
// each network its subnetworks and rates; for each collateral its price feed, the feed's decimals and its answer at
// that block. Everything configured is checked against the registries: a vault the factory did not create, a
// network not registered, a vault without a delegator or a collateral without a feed stops the start with an error
// naming it. A vault with a FullRestakeDelegator is refused (FullRestakeVaultError), not silently left out: its
// stake counts once per operator (Symbiotic's points template excludes such vaults too), and a configuration that
// lists one is a mistake its operator should see.
import type { Abi, Address } from "viem";
import type { ChainPublicClient } from "../../chain/client.ts";
import type { PointsEngineConfig } from "../../deployment/schema.ts";
import type { DelegatorType, LedgerScope } from "../model.ts";
import {
  DELEGATOR_TYPE,
  networkRegistryAbi,
  operatorSpecificDelegatorAbi,
  priceFeedAbi,
  vaultAbi,
  vaultFactoryAbi,
} from "./abis.ts";
import { FullRestakeVaultError, ScopeContractError } from "./errors.ts";
import { readViews, type ViewCall, type ViewResult } from "./multicall.ts";
import { subnetworkOf } from "./subnetwork.ts";

/** The ledger's scope and what the log reader needs beside it: which contracts emit the scope's events. */
export interface ChainScope extends LedgerScope {
  /** Each vault's delegator (it emits the limit and operator-share events). */
  delegators: { vault: Address; delegator: Address }[];
  optInServices: { network: Address; vault: Address };
}

const erc20DecimalsAbi = [
  {
    type: "function",
    name: "decimals",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint8" }],
  },
] as const satisfies Abi;

const lower = (address: string) => address.toLowerCase() as Address;

export async function readScope(
  client: ChainPublicClient,
  config: PointsEngineConfig,
  block: bigint,
): Promise<ChainScope> {
  const { contracts, defaults } = config;
  const call = (
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[] = [],
  ): ViewCall => ({
    address,
    abi,
    functionName,
    args,
  });

  // 1. Registries, and each vault's collateral and delegator.
  const first = await readViews(
    client,
    [
      ...config.vaults.map((v) => call(contracts.vaultFactory, vaultFactoryAbi, "isEntity", [v.address])),
      ...config.networks.map((n) =>
        call(contracts.networkRegistry, networkRegistryAbi, "isEntity", [n.address]),
      ),
      ...config.vaults.flatMap((v) => [
        call(v.address, vaultAbi, "collateral"),
        call(v.address, vaultAbi, "delegator"),
      ]),
    ],
    block,
  );
  const at = (results: ViewResult[], index: number, what: string, details: Record<string, string>) => {
    const result = results[index];
    if (result?.status !== "success")
      throw new ScopeContractError(`${what} could not be read at block ${block}`, details);
    return result.result;
  };
  const vaultCount = config.vaults.length;
  config.vaults.forEach((v, i) => {
    if (at(first, i, "the vault factory's isEntity", { vault: v.address }) !== true)
      throw new ScopeContractError(
        `${v.address} is not a vault of the vault factory ${contracts.vaultFactory}`,
        {
          vault: v.address,
        },
      );
  });
  config.networks.forEach((n, i) => {
    if (at(first, vaultCount + i, "the network registry's isEntity", { network: n.address }) !== true)
      throw new ScopeContractError(`${n.address} is not registered in ${contracts.networkRegistry}`, {
        network: n.address,
      });
  });
  const base = vaultCount + config.networks.length;
  const vaults = config.vaults.map((v, i) => {
    const collateral = lower(at(first, base + 2 * i, "collateral()", { vault: v.address }) as string);
    const delegator = lower(at(first, base + 2 * i + 1, "delegator()", { vault: v.address }) as string);
    if (BigInt(delegator) === 0n)
      throw new ScopeContractError(`vault ${v.address} has no delegator yet`, { vault: v.address });
    return { config: v, collateral, delegator };
  });

  // 2. Delegator types, operators, collateral decimals; each collateral's feed.
  const collaterals = [...new Set(vaults.map((v) => v.collateral))];
  const feeds = collaterals.map((collateral) => {
    const feed = config.priceFeeds.find((f) => lower(f.collateral) === collateral);
    if (!feed)
      throw new ScopeContractError(`collateral ${collateral} has no price feed in pointsEngine.priceFeeds`, {
        collateral,
        vaults: vaults
          .filter((v) => v.collateral === collateral)
          .map((v) => v.config.address)
          .join(","),
      });
    return { collateral, feed: lower(feed.feed) };
  });
  const second = await readViews(
    client,
    [
      ...vaults.flatMap((v) => [
        call(v.delegator, operatorSpecificDelegatorAbi, "TYPE"),
        call(v.delegator, operatorSpecificDelegatorAbi, "operator"),
      ]),
      ...collaterals.map((c) => call(c, erc20DecimalsAbi, "decimals")),
      ...feeds.flatMap((f) => [
        call(f.feed, priceFeedAbi, "decimals"),
        call(f.feed, priceFeedAbi, "latestRoundData"),
      ]),
    ],
    block,
  );
  const scopeVaults = vaults.map((v, i) => {
    const type = at(second, 2 * i, "the delegator's TYPE()", {
      vault: v.config.address,
      delegator: v.delegator,
    });
    if (type === DELEGATOR_TYPE.fullRestake) throw new FullRestakeVaultError(v.config.address, v.delegator);
    let delegatorType: DelegatorType;
    if (type === DELEGATOR_TYPE.networkRestake) delegatorType = "networkRestake";
    else if (type === DELEGATOR_TYPE.operatorSpecific) delegatorType = "operatorSpecific";
    else
      throw new ScopeContractError(
        `vault ${v.config.address}'s delegator has type ${type}, which is not supported`,
        {
          vault: v.config.address,
          delegator: v.delegator,
        },
      );
    const decimals = at(
      second,
      2 * vaults.length + collaterals.indexOf(v.collateral),
      "the collateral's decimals()",
      {
        collateral: v.collateral,
      },
    );
    const operator =
      delegatorType === "operatorSpecific"
        ? lower(at(second, 2 * i + 1, "operator()", { delegator: v.delegator }) as string)
        : undefined;
    return {
      address: lower(v.config.address),
      collateral: v.collateral,
      collateralDecimals: Number(decimals),
      delegatorType,
      ...(operator ? { operator } : {}),
      ...(v.config.curator ? { curator: lower(v.config.curator) } : {}),
      curatorFeeBps: v.config.curatorFeeBps ?? defaults.curatorFeeBps,
    };
  });
  const feedBase = 2 * vaults.length + collaterals.length;
  const priceFeeds = feeds.map((f, i) => {
    const details = { collateral: f.collateral, feed: f.feed };
    const decimals = at(second, feedBase + 2 * i, "the feed's decimals()", details);
    const round = at(
      second,
      feedBase + 2 * i + 1,
      "the feed's latestRoundData()",
      details,
    ) as readonly unknown[];
    return {
      collateral: f.collateral,
      feed: f.feed,
      decimals: Number(decimals),
      initialAnswer: round[1] as bigint,
    };
  });

  return {
    networks: config.networks.map((n) => ({
      address: lower(n.address),
      subnetworks: n.subnetworkIds.map((id) => subnetworkOf(n.address, BigInt(id))),
      ratePerUsdHour: n.ratePerUsdHour ?? defaults.ratePerUsdHour,
      operatorFeeBps: n.operatorFeeBps ?? defaults.operatorFeeBps,
      networkShareBps: n.networkShareBps ?? defaults.networkShareBps,
    })),
    vaults: scopeVaults,
    priceFeeds,
    delegators: vaults.map((v) => ({ vault: lower(v.config.address), delegator: v.delegator })),
    optInServices: {
      network: lower(contracts.operatorNetworkOptInService),
      vault: lower(contracts.operatorVaultOptInService),
    },
  };
}

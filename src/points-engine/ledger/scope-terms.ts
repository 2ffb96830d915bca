// The scope as the ledger uses it: lookups by address and subnetwork, each network's numerator weights and each
// vault's USD conversion, checked once.
import { BPS, networkWeights, subnetworkNetwork, usdConversion } from "../formula.ts";
import type { Address, Hex, LedgerScope } from "../model.ts";
import { LedgerScopeError } from "./errors.ts";
import type { NetworkTerms, VaultTerms } from "./vault-book.ts";

export interface ScopeTerms {
  networks: Map<Address, NetworkTerms>;
  /** Subnetwork (lowercase bytes32) → its network. */
  subnetworks: Map<Hex, NetworkTerms>;
  vaults: Map<Address, VaultTerms>;
  /** Collateral → feed answer before any `AnswerUpdated` (0 when unknown). */
  initialPrices: Map<Address, bigint>;
}

function checkBps(value: number, field: string, owner: string): void {
  if (!Number.isInteger(value) || value < 0 || value > Number(BPS)) {
    throw new LedgerScopeError(`${field} of ${owner} must be an integer from 0 to 10000`, {
      owner,
      field,
      value,
    });
  }
}

export function scopeTerms(scope: LedgerScope): ScopeTerms {
  const networks = new Map<Address, NetworkTerms>();
  const subnetworks = new Map<Hex, NetworkTerms>();
  for (const network of scope.networks) {
    const address = network.address.toLowerCase() as Address;
    checkBps(network.operatorFeeBps, "operatorFeeBps", address);
    checkBps(network.networkShareBps, "networkShareBps", address);
    if (network.operatorFeeBps + network.networkShareBps > Number(BPS)) {
      throw new LedgerScopeError(`operatorFeeBps + networkShareBps of ${address} exceed 10000`, {
        network: address,
      });
    }
    if (network.ratePerUsdHour < 0n) {
      throw new LedgerScopeError(`ratePerUsdHour of ${address} is negative`, { network: address });
    }
    const terms: NetworkTerms = {
      address,
      weights: networkWeights(network.ratePerUsdHour, network.operatorFeeBps, network.networkShareBps),
    };
    networks.set(address, terms);
    for (const subnetwork of network.subnetworks) {
      const key = subnetwork.toLowerCase() as Hex;
      if (subnetworkNetwork(key) !== address) {
        throw new LedgerScopeError(`Subnetwork ${key} does not belong to network ${address}`, {
          network: address,
          subnetwork: key,
        });
      }
      subnetworks.set(key, terms);
    }
  }
  const feeds = new Map(scope.priceFeeds.map((feed) => [feed.collateral.toLowerCase() as Address, feed]));
  const vaults = new Map<Address, VaultTerms>();
  for (const vault of scope.vaults) {
    const address = vault.address.toLowerCase() as Address;
    const collateral = vault.collateral.toLowerCase() as Address;
    const feed = feeds.get(collateral);
    if (feed === undefined) {
      throw new LedgerScopeError(`Vault ${address}'s collateral ${collateral} has no price feed`, {
        vault: address,
        collateral,
      });
    }
    checkBps(vault.curatorFeeBps, "curatorFeeBps", address);
    // FullRestake delegators are out of scope, as in the points template: their stake is restaked to every
    // network at once, so it cannot be split by stake in a network.
    if (vault.delegatorType !== "networkRestake" && vault.delegatorType !== "operatorSpecific") {
      throw new LedgerScopeError(
        `Vault ${address} has a ${String(vault.delegatorType)} delegator, not counted`,
        {
          vault: address,
          delegatorType: String(vault.delegatorType),
        },
      );
    }
    if (vault.delegatorType === "operatorSpecific" && vault.operator === undefined) {
      throw new LedgerScopeError(`Operator-specific vault ${address} names no operator`, { vault: address });
    }
    const curator = vault.curator === undefined ? null : (vault.curator.toLowerCase() as Address);
    vaults.set(address, {
      address,
      collateral,
      delegatorType: vault.delegatorType,
      operator: vault.operator === undefined ? null : (vault.operator.toLowerCase() as Address),
      curator,
      // Without a curator to credit, the curator fee stays with the stakers.
      curatorFeeBps: curator === null ? 0n : BigInt(vault.curatorFeeBps),
      conversion: usdConversion(vault.collateralDecimals, feed.decimals),
    });
  }
  const initialPrices = new Map<Address, bigint>();
  for (const [collateral, feed] of feeds) initialPrices.set(collateral, feed.initialAnswer ?? 0n);
  return { networks, subnetworks, vaults, initialPrices };
}

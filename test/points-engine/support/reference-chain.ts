// A test oracle for the Symbiotic contracts' views: applies stake events the way the contracts change their
// storage and answers the state at a block as `readChainState` would (the delegators' `stake(subnetwork,
// operator)` with core's formula, `activeShares`, `activeSharesOf`, the feeds' answers). Written apart from the
// ledger: it keeps plain contract storage and computes stakes on demand, the way the delegators do.
import type { Address, ChainState, Hex, LedgerScope, StakeEvent } from "../../../src/points-engine/model.ts";

interface VaultStorage {
  activeStake: bigint;
  activeShares: bigint;
  sharesOf: Map<Address, bigint>;
  delegatorType: "networkRestake" | "operatorSpecific";
  operator: Address | undefined;
  maxNetworkLimit: Map<Hex, bigint>;
  networkLimit: Map<Hex, bigint>;
  operatorNetworkShares: Map<Hex, Map<Address, bigint>>;
}

export class ReferenceChain {
  readonly #vaults = new Map<Address, VaultStorage>();
  readonly #networkOptIns = new Set<string>();
  readonly #vaultOptIns = new Set<string>();
  readonly #answers = new Map<Address, bigint>();
  readonly #subnetworks: Hex[];
  readonly #operators = new Set<Address>();

  constructor(readonly scope: LedgerScope) {
    this.#subnetworks = scope.networks.flatMap((network) => network.subnetworks);
    for (const vault of scope.vaults) {
      this.#vaults.set(vault.address, {
        activeStake: 0n,
        activeShares: 0n,
        sharesOf: new Map(),
        delegatorType: vault.delegatorType,
        operator: vault.operator,
        maxNetworkLimit: new Map(),
        networkLimit: new Map(),
        operatorNetworkShares: new Map(),
      });
      if (vault.operator !== undefined) this.#operators.add(vault.operator);
    }
    for (const feed of scope.priceFeeds) this.#answers.set(feed.collateral, feed.initialAnswer ?? 0n);
  }

  vault(address: Address): Readonly<VaultStorage> | undefined {
    return this.#vaults.get(address);
  }

  isOptedIn(service: "network" | "vault", operator: Address, target: Address): boolean {
    return (service === "network" ? this.#networkOptIns : this.#vaultOptIns).has(`${operator}|${target}`);
  }

  answer(collateral: Address): bigint {
    return this.#answers.get(collateral) ?? 0n;
  }

  apply(event: StakeEvent): void {
    if ("service" in event) {
      const set = event.service === "network" ? this.#networkOptIns : this.#vaultOptIns;
      if (event.kind === "optIn") set.add(`${event.operator}|${event.target}`);
      else set.delete(`${event.operator}|${event.target}`);
      this.#operators.add(event.operator);
      return;
    }
    if ("collateral" in event) {
      this.#answers.set(event.collateral, event.answer);
      return;
    }
    const vault = this.#vaults.get(event.vault);
    if (vault === undefined) return;
    switch (event.kind) {
      case "deposit":
        vault.activeStake += event.amount;
        vault.activeShares += event.shares;
        vault.sharesOf.set(event.staker, (vault.sharesOf.get(event.staker) ?? 0n) + event.shares);
        return;
      case "withdraw":
        vault.activeStake -= event.amount;
        vault.activeShares -= event.burnedShares;
        vault.sharesOf.set(event.staker, (vault.sharesOf.get(event.staker) ?? 0n) - event.burnedShares);
        return;
      case "slash":
        vault.activeStake -= event.slashedAmount;
        return;
      case "shareTransfer":
        vault.sharesOf.set(event.from, (vault.sharesOf.get(event.from) ?? 0n) - event.shares);
        vault.sharesOf.set(event.to, (vault.sharesOf.get(event.to) ?? 0n) + event.shares);
        return;
      case "maxNetworkLimit": {
        vault.maxNetworkLimit.set(event.subnetwork, event.amount);
        const limit = vault.networkLimit.get(event.subnetwork);
        if (limit !== undefined && limit > event.amount)
          vault.networkLimit.set(event.subnetwork, event.amount);
        return;
      }
      case "networkLimit":
        vault.networkLimit.set(event.subnetwork, event.amount);
        return;
      case "operatorNetworkShares": {
        let shares = vault.operatorNetworkShares.get(event.subnetwork);
        if (shares === undefined) {
          shares = new Map();
          vault.operatorNetworkShares.set(event.subnetwork, shares);
        }
        shares.set(event.operator, event.shares);
        this.#operators.add(event.operator);
        return;
      }
    }
  }

  /** `delegator.stake(subnetwork, operator)` as core computes it. */
  stake(vaultAddress: Address, subnetwork: Hex, operator: Address): bigint {
    const vault = this.#vaults.get(vaultAddress);
    if (vault === undefined) return 0n;
    const network = `0x${subnetwork.slice(2, 42)}` as Address;
    if (!this.isOptedIn("vault", operator, vaultAddress) || !this.isOptedIn("network", operator, network))
      return 0n;
    const limit = vault.networkLimit.get(subnetwork) ?? 0n;
    const available = vault.activeStake < limit ? vault.activeStake : limit;
    if (vault.delegatorType === "operatorSpecific") return operator === vault.operator ? available : 0n;
    const shares = vault.operatorNetworkShares.get(subnetwork);
    let total = 0n;
    for (const value of shares?.values() ?? []) total += value;
    if (total === 0n) return 0n;
    return ((shares?.get(operator) ?? 0n) * available) / total;
  }

  /** The state at the end of a block, as `readChainState` answers it. */
  state(block: bigint, timestamp: bigint): ChainState {
    const stakes: ChainState["stakes"] = [];
    for (const vault of this.#vaults.keys()) {
      for (const subnetwork of this.#subnetworks) {
        for (const operator of this.#operators) {
          stakes.push({ subnetwork, vault, operator, stake: this.stake(vault, subnetwork, operator) });
        }
      }
    }
    return {
      block,
      timestamp,
      vaults: [...this.#vaults].map(([vault, storage]) => ({
        vault,
        activeStake: storage.activeStake,
        activeShares: storage.activeShares,
        stakers: [...storage.sharesOf].map(([staker, shares]) => ({ staker, shares })),
      })),
      stakes,
      prices: [...this.#answers].map(([collateral, answer]) => ({ collateral, answer })),
    };
  }
}

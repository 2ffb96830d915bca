// The registry as the service holds it: what the metadata tree says about each entry, plus the on-chain
// vault fields and approval that come from the overlay.
import type { Address } from "viem";
import type { Metadata, VaultType } from "./schemas.ts";

export const REGISTRY_KINDS = ["networks", "operators", "vaults", "curators"] as const;
export type RegistryKind = (typeof REGISTRY_KINDS)[number];

/** A network or an operator. */
export interface RegistryEntity {
  address: Address;
  meta: Metadata;
}

export interface RegistryCurator {
  id: string;
  meta: Metadata;
}

/** A vault as the metadata tree describes it. */
export interface TreeVault {
  address: Address;
  curatorId?: string;
  meta: Metadata;
}

/** The fields of a vault that live on-chain, and whether the vault is served. */
export interface VaultOnChain {
  vaultType: VaultType;
  collateral: Address;
  totalSupply: bigint;
  tvl: number;
  approved: boolean;
}

/** A stored vault; without on-chain data it is kept but never served. */
export interface RegistryVault extends TreeVault {
  onChain?: VaultOnChain;
}

export interface MetadataTree {
  networks: RegistryEntity[];
  operators: RegistryEntity[];
  curators: RegistryCurator[];
  vaults: TreeVault[];
}

export interface Registry {
  networks: RegistryEntity[];
  operators: RegistryEntity[];
  curators: RegistryCurator[];
  vaults: RegistryVault[];
}

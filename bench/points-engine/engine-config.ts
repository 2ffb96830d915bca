// The `pointsEngine` deployment section of the generated history: every vault, network and collateral feed of the
// plan, the registries and opt-in services at their numbered addresses, a snapshot every 1,000 blocks.
import { addressOf, collateralCount, FIRST_BLOCK, type HistoryPlan, REGISTRY, SERVICE } from "./history.ts";

export const CHAIN_ID_FOR_ENGINE = 31_337;
/** Where every public network has Multicall3; the bench node answers its aggregate3 there. */
export const MULTICALL3_ADDRESS = "0xca11bde05977b3631167028862be2a173976ca11" as const;
export const SNAPSHOT_EVERY_BLOCKS = 1_000;

export function engineConfigOf(plan: HistoryPlan) {
  return {
    pointsType: "sluice",
    decimals: 48,
    startBlock: String(FIRST_BLOCK),
    snapshotEveryBlocks: SNAPSHOT_EVERY_BLOCKS,
    confirmations: 0,
    contracts: {
      networkRegistry: addressOf("registry", REGISTRY.network),
      operatorRegistry: addressOf("registry", REGISTRY.operator),
      vaultFactory: addressOf("registry", REGISTRY.vaultFactory),
      operatorNetworkOptInService: addressOf("service", SERVICE.network),
      operatorVaultOptInService: addressOf("service", SERVICE.vault),
    },
    networks: Array.from({ length: plan.networks }, (_, n) => ({ address: addressOf("network", n) })),
    vaults: Array.from({ length: plan.vaults }, (_, v) => ({ address: addressOf("vault", v) })),
    priceFeeds: Array.from({ length: collateralCount(plan) }, (_, c) => ({
      collateral: addressOf("collateral", c),
      feed: addressOf("feed", c),
    })),
  };
}

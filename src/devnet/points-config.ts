// The devnet deployment's `pointsEngine` section: the plan's networks, vaults (the points owner as their curator,
// with the plan's fees) and feeds, from the block the points contracts were deployed in, a snapshot every 10 blocks.
import type { DeploymentInput } from "../deployment/schema.ts";
import type { PointsPlan } from "./points-plan.ts";

/** Snapshots every 10 blocks: at a block a second, a new historical point every 10 seconds. */
export const DEVNET_POINTS_SNAPSHOT_EVERY = 10;

export type PointsEngineInput = NonNullable<DeploymentInput["pointsEngine"]>;

export function devnetPointsEngineSection(plan: PointsPlan, startBlock: bigint): PointsEngineInput {
  return {
    pointsType: "sluice",
    decimals: 48,
    startBlock: startBlock.toString(),
    snapshotEveryBlocks: DEVNET_POINTS_SNAPSHOT_EVERY,
    defaults: {
      ratePerUsdHour: "2500000000000000000000000000000000000000000000",
      operatorFeeBps: 300,
      networkShareBps: 0,
      curatorFeeBps: 0,
    },
    contracts: { ...plan.contracts },
    networks: plan.networks.map((network, index) => ({
      address: network.account.address,
      subnetworkIds: [0],
      // The second network pays twice the default rate and keeps 5 % for itself.
      ...(index === 1
        ? { ratePerUsdHour: "5000000000000000000000000000000000000000000000", networkShareBps: 500 }
        : {}),
    })),
    vaults: plan.vaults.map((vault) => ({
      address: vault.address,
      curator: plan.owner.account.address,
      curatorFeeBps: vault.curatorFeeBps,
    })),
    priceFeeds: plan.collaterals.map((c) => ({ collateral: c.address, feed: c.feed })),
  };
}

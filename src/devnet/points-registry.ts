// The devnet's own networks, operators, curator and vaults (points-plan.ts) as registry entries, added beside
// whatever registry is stored (the demo one, or an imported one) when they are missing: /entities/* lists them and
// the points the engine computes are keyed by their addresses. Their addresses are fixed, so this needs no chain.
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { Registry } from "../registry/registry.ts";
import { addMissingRegistryEntries } from "../registry/repository.ts";
import { normalizeAddress } from "../shared/wire.ts";
import type { PointsPlan } from "./points-plan.ts";

export const DEVNET_CURATOR_ID = "sluice-devnet";

const LETTERS = ["A", "B", "C", "D"] as const;

export function devnetPointsRegistry(plan: PointsPlan): Registry {
  const tags = ["devnet"];
  return {
    networks: plan.networks.map((network, i) => ({
      address: normalizeAddress(network.account.address),
      meta: { name: `Devnet Network ${LETTERS[i]}`, description: "A network of the local devnet", tags },
    })),
    operators: plan.operators.map((operator, i) => ({
      address: normalizeAddress(operator.account.address),
      meta: { name: `Devnet Operator ${LETTERS[i]}`, description: "An operator of the local devnet", tags },
    })),
    curators: [
      {
        id: DEVNET_CURATOR_ID,
        meta: { name: "Sluice Devnet Curator", description: "Curates the local devnet's vaults", tags },
      },
    ],
    vaults: plan.vaults.map((vault, index) => {
      const collateral = plan.collaterals[vault.collateral]!;
      // Every first deposit mints shares 1:1 (the vault starts empty and is never slashed before them).
      const deposited = plan.deposits.filter((d) => d.vault === index).reduce((sum, d) => sum + d.amount, 0n);
      const usd = (deposited * collateral.initialPrice) / 10n ** BigInt(collateral.feedDecimals);
      return {
        address: normalizeAddress(vault.address),
        curatorId: DEVNET_CURATOR_ID,
        meta: { name: `Devnet ${vault.label}`, description: "A vault of the local devnet", tags },
        onChain: {
          // Vault factory versions 1 and 2 are the registry's `v1`.
          vaultType: "v1",
          collateral: normalizeAddress(collateral.address),
          totalSupply: deposited,
          tvl: Number(usd / 10n ** BigInt(collateral.decimals)),
          approved: true,
        },
      };
    }),
  };
}

/** Adds the devnet's entries that the stored registry lacks (none on a restart). */
export async function addDevnetPointsRegistry(
  database: Database,
  plan: PointsPlan,
  logger: Logger,
): Promise<void> {
  const added = await addMissingRegistryEntries(database, devnetPointsRegistry(plan));
  if (added > 0) logger.info({ added }, "devnet: its networks, operators and vaults added to the registry");
}

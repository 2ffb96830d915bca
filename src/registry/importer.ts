// An import of a read metadata tree: join the overlay's on-chain vault data, replace the stored registry.
import type { Database } from "../db/client.ts";
import type { Overlay } from "./overlay.ts";
import type { MetadataTree, Registry } from "./registry.ts";
import type { ImportReport, OverlayReport, TreeReport } from "./report.ts";
import { replaceRegistry } from "./repository.ts";

/** Stores an already-read tree with its overlay, replacing the registry atomically. */
export async function storeRegistry(
  database: Database,
  { tree, report }: { tree: MetadataTree; report: TreeReport },
  overlay: Overlay,
): Promise<ImportReport> {
  const joined = applyOverlay(tree, overlay, report);
  await replaceRegistry(database, joined.registry);
  return { ...report, overlay: joined.overlay };
}

/** Joins on-chain data to the tree's vaults; overlay entries for vaults the tree lacks are reported, not stored. */
export function applyOverlay(
  tree: MetadataTree,
  overlay: Overlay,
  treeReport: TreeReport,
): { registry: Registry; overlay: OverlayReport } {
  const report: OverlayReport = { applied: 0, approved: 0, withoutOverlay: [], skipped: [] };
  const vaults = tree.vaults.map((vault) => {
    const onChain = overlay.get(vault.address);
    if (!onChain) {
      report.withoutOverlay.push(vault.address);
      return vault;
    }
    report.applied += 1;
    if (onChain.approved) report.approved += 1;
    return { ...vault, onChain };
  });

  const inTree = new Set(tree.vaults.map((vault) => vault.address));
  const skippedInTree = new Set(
    treeReport.kinds.vaults.skipped.map((skipped) => skipped.entry.toLowerCase()),
  );
  for (const address of [...overlay.keys()].sort()) {
    if (inTree.has(address)) continue;
    const reason = skippedInTree.has(address)
      ? "the tree's entry for this vault was skipped"
      : "no such vault in the tree";
    report.skipped.push({ entry: address, reason });
  }

  return { registry: { ...tree, vaults }, overlay: report };
}

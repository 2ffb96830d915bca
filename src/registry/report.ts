// What an import did: per kind, what was imported, skipped (and why) and repaired (and how), plus the
// overlay's outcome. The CLI prints it; tests assert on it.
import type { RegistryKind } from "./registry.ts";

export interface SkippedEntry {
  /** The folder name as found in the tree (or the overlay key). */
  entry: string;
  reason: string;
}

export interface RepairedEntry {
  entry: string;
  changes: string[];
}

export interface KindReport {
  kind: RegistryKind;
  imported: number;
  skipped: SkippedEntry[];
  repaired: RepairedEntry[];
  /** Kept as found, but worth a look (e.g. a curatorId that names no curator). */
  warnings: SkippedEntry[];
}

export interface TreeReport {
  kinds: Record<RegistryKind, KindReport>;
  /** Top-level entries of the tree that are not registries (`tokens/`, `points/`, stray files). */
  skippedKinds: SkippedEntry[];
}

export interface OverlayReport {
  /** Vaults that received on-chain data from the overlay. */
  applied: number;
  /** Of those, the approved ones: what /entities/vaults serves. */
  approved: number;
  /** Vaults of the tree without overlay data: stored, not served. */
  withoutOverlay: string[];
  /** Overlay entries that match no imported vault. */
  skipped: SkippedEntry[];
}

export interface ImportReport extends TreeReport {
  overlay: OverlayReport;
}

/** A readable multi-line summary; repeated changes are grouped so a large tree stays legible. */
export function formatImportReport(report: ImportReport, options: { examples?: number } = {}): string {
  const examples = options.examples ?? 3;
  const lines: string[] = [];
  const kinds = Object.values(report.kinds);
  const width = Math.max(...kinds.map((k) => k.kind.length));
  for (const kind of kinds) {
    lines.push(
      `${kind.kind.padEnd(width)}  ${kind.imported} imported, ${kind.skipped.length} skipped, ${kind.repaired.length} repaired`,
    );
    for (const skipped of kind.skipped)
      lines.push(`    skipped ${kind.kind}/${skipped.entry}: ${skipped.reason}`);
    for (const [change, entries] of groupChanges(kind.repaired)) {
      lines.push(`    repaired ${entries.length} × ${change}: ${listExamples(entries, examples)}`);
    }
    for (const warning of kind.warnings)
      lines.push(`    warning ${kind.kind}/${warning.entry}: ${warning.reason}`);
  }
  const { overlay } = report;
  lines.push(
    `overlay  ${overlay.applied} vaults with on-chain data, ${overlay.approved} approved (served), ` +
      `${overlay.withoutOverlay.length} without overlay data (stored, not served), ${overlay.skipped.length} skipped`,
  );
  for (const skipped of overlay.skipped)
    lines.push(`    skipped overlay ${skipped.entry}: ${skipped.reason}`);
  for (const skipped of report.skippedKinds) lines.push(`not imported  ${skipped.entry}: ${skipped.reason}`);
  return lines.join("\n");
}

function groupChanges(repaired: RepairedEntry[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { entry, changes } of repaired) {
    for (const change of changes) {
      const entries = groups.get(change) ?? [];
      entries.push(entry);
      groups.set(change, entries);
    }
  }
  return groups;
}

function listExamples(entries: string[], count: number): string {
  const shown = entries.slice(0, count).join(", ");
  return entries.length > count ? `${shown}, +${entries.length - count} more` : shown;
}

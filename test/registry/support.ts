// Shared inputs of the registry tests: the real public metadata tree, synthetic trees, overlays.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateDemoOverlay } from "../../src/demo/registry.ts";
import { readMetadataTree, readTreeTokens } from "../../src/registry/metadata-tree.ts";
import type { Overlay } from "../../src/registry/overlay.ts";

/** The real public mainnet metadata tree (744 files), beside the repository. */
export const FIXTURE_TREE = fileURLToPath(new URL("../../fixtures/metadata-mainnet", import.meta.url));

/** The fixture tree's demo overlay (deterministic). */
export async function fixtureOverlay(seed?: number): Promise<Overlay> {
  const [{ tree }, tokens] = await Promise.all([
    readMetadataTree(FIXTURE_TREE),
    readTreeTokens(FIXTURE_TREE),
  ]);
  return generateDemoOverlay({ vaults: tree.vaults, tokens, ...(seed !== undefined ? { seed } : {}) });
}

/** A temporary directory holding the given files (paths relative to it); `remove` deletes it. */
export function writeTree(files: Record<string, string | object>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "sluice-registry-"));
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

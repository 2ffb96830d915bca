// A registry import from a tree directory in one call (the CLI and the demo seed read the tree themselves).
import type { Database } from "../../src/db/client.ts";
import { storeRegistry } from "../../src/registry/importer.ts";
import { type ReadMetadataTreeOptions, readMetadataTree } from "../../src/registry/metadata-tree.ts";
import type { Overlay } from "../../src/registry/overlay.ts";
import type { ImportReport } from "../../src/registry/report.ts";

export interface ImportRegistryOptions extends ReadMetadataTreeOptions {
  registryDir: string;
  overlay: Overlay;
}

export async function importRegistry(
  database: Database,
  options: ImportRegistryOptions,
): Promise<ImportReport> {
  return storeRegistry(database, await readMetadataTree(options.registryDir, options), options.overlay);
}

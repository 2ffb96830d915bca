// `sluice import registry <dir> --overlay <file>`: replaces the stored registry with a metadata tree plus
// an overlay of on-chain vault fields, then prints what was imported, skipped and repaired.
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { readEnv } from "../config/env.ts";
import { storeRegistry } from "../registry/importer.ts";
import { DEFAULT_ICON_BASE_URL, readMetadataTree } from "../registry/metadata-tree.ts";
import { readOverlayFile } from "../registry/overlay.ts";
import { formatImportReport } from "../registry/report.ts";
import { withDatabaseOrServer } from "./database.ts";

interface ImportRegistryFlags {
  overlay: string;
  iconBaseUrl?: string;
  json?: boolean;
}

export function registerImportRegistryCommand(importCommand: Command): void {
  importCommand
    .command("registry")
    .description(
      "import networks, operators, vaults and curators from a metadata-repository tree " +
        "({networks,operators,vaults}/<address>/info.json, curators/<slug>/info.json) and an overlay file " +
        'of on-chain vault fields ({"vaults": {"<address>": {vaultType, collateral, totalSupply, tvl, approved}}}); ' +
        "replaces the stored registry atomically",
    )
    .argument("<dir>", "metadata tree directory")
    .requiredOption("--overlay <file>", "overlay JSON file with the vaults' on-chain fields and approval")
    .option(
      "--icon-base-url <url>",
      `base URL of meta.icon (default: REGISTRY_ICON_BASE_URL or ${DEFAULT_ICON_BASE_URL})`,
    )
    .option("--json", "print the full import report as JSON")
    .action(async (dir: string, flags: ImportRegistryFlags) => {
      const env = readEnv();
      const iconBaseUrl = flags.iconBaseUrl ?? env.REGISTRY_ICON_BASE_URL ?? DEFAULT_ICON_BASE_URL;
      // Both inputs are read and validated before the database is touched: a bad file or tree changes nothing.
      const overlay = await readOverlayFile(flags.overlay);
      const tree = await readMetadataTree(dir, { iconBaseUrl });
      const { report, kind } = await withDatabaseOrServer({
        onDatabase: async (database) => ({
          report: await storeRegistry(database, tree, overlay),
          kind: database.kind,
        }),
        // The server checks the overlay again from the file's JSON, already read and checked above.
        throughServer: async (server) =>
          server.importRegistry(tree, JSON.parse(await readFile(flags.overlay, "utf8"))),
      });
      // Printed once the registry is stored (the database closed, or the server answered).
      if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(`registry imported from ${dir} (${kind})\n${formatImportReport(report)}\n`);
    });
}

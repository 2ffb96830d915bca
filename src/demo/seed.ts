// The demo dataset `npm start` serves with no configuration: the real mainnet metadata tree with a
// generated overlay, and generated points over its vaults. Each part loads only into an empty dataset.
import { existsSync } from "node:fs";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { packagePath } from "../package-root.ts";
import { seedDemoPoints } from "./points.ts";
import { seedDemoRegistry } from "./registry.ts";

/** The public metadata tree shipped beside the repository (fixtures/metadata-mainnet, copied from the public Symbiotic metadata repository). */
export const DEFAULT_DEMO_REGISTRY_DIR = packagePath("fixtures", "metadata-mainnet");

export async function seedDemoData(
  database: Database,
  options: { logger: Logger; registryDir?: string; iconBaseUrl?: string },
): Promise<void> {
  const registryDir = options.registryDir ?? DEFAULT_DEMO_REGISTRY_DIR;
  if (!existsSync(registryDir)) {
    options.logger.warn({ registryDir }, "demo registry directory not found; set DEMO_REGISTRY_DIR");
    return;
  }
  const { vaults } = await seedDemoRegistry(database, {
    registryDir,
    iconBaseUrl: options.iconBaseUrl,
    logger: options.logger,
  });
  await seedDemoPoints(database, { vaults, logger: options.logger });
}

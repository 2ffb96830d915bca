// The database of a running Sluice: opened as the environment says (PGlite in DATA_DIR, or DATABASE_URL), migrated,
// and, when demo data is on, loaded with the demo registry and points.
import type { Env } from "../config/env.ts";
import { type Database, databaseOptionsFromEnv, openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { seedDemoData } from "../demo/seed.ts";
import type { Logger } from "../logger.ts";

/** The database the environment names, opened for serving (request connections get the statement timeout). */
export function openServerDatabase(env: Env, logger: Logger): Promise<Database> {
  return openDatabase(databaseOptionsFromEnv(env, env.DATA_DIR, { role: "server", logger }));
}

/**
 * Migrates the database and, when demo data is on (by default without DATABASE_URL), loads the demo registry and
 * points into an empty dataset. Needs nothing but the database, so the devnet runs it while anvil starts.
 */
export async function prepareDatabase(database: Database, env: Env, logger: Logger): Promise<void> {
  // Migrations and imports run without the request connections' statement timeout.
  await migrate(database.maintenance);
  const demoEnabled = env.SLUICE_DEMO_DATA ? env.SLUICE_DEMO_DATA === "1" : !env.DATABASE_URL;
  if (demoEnabled)
    await seedDemoData(database.maintenance, {
      logger,
      registryDir: env.DEMO_REGISTRY_DIR,
      iconBaseUrl: env.REGISTRY_ICON_BASE_URL,
    });
}

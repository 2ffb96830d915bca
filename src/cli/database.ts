// Opens the configured database and brings its schema up to date: what every command needs first. A command's
// statements have no time limit (imports); what it reports while it runs (a lock it waits for) goes to stderr,
// beside its output.
import { type Env, readEnv } from "../config/env.ts";
import { type Database, databaseOptionsFromEnv, openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createLogger } from "../logger.ts";

export async function openMigratedDatabase(env: Env = readEnv()): Promise<Database> {
  const logger = createLogger({ level: env.LOG_LEVEL, destination: "stderr" });
  const database = await openDatabase(databaseOptionsFromEnv(env, env.DATA_DIR, { role: "command", logger }));
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Runs `work` on the migrated database and closes it. Resolves only once the database is closed (PGlite writes
 * out its last pages then), so a command reports success after its data is stored, never before.
 */
export async function withMigratedDatabase<T>(
  work: (database: Database) => Promise<T>,
  env: Env = readEnv(),
): Promise<T> {
  const database = await openMigratedDatabase(env);
  let result: T;
  try {
    result = await work(database);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  await database.close();
  return result;
}

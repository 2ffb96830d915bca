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

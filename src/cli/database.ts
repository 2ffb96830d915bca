// Opens the configured database and brings its schema up to date: what every command needs first.
import { type Env, readEnv } from "../config/env.ts";
import { type Database, databaseOptionsFromEnv, openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";

export async function openMigratedDatabase(env: Env = readEnv()): Promise<Database> {
  const database = await openDatabase(databaseOptionsFromEnv(env, env.DATA_DIR));
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

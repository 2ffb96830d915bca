// Opens the configured database and brings its schema up to date: what every command needs first. A command's
// statements have no time limit (imports); what it reports while it runs (a lock it waits for) goes to stderr,
// beside its output.
import type { AdminClient } from "../admin/client.ts";
import { findRunningServer } from "../admin/running-server.ts";
import { type Env, readEnv } from "../config/env.ts";
import { type Database, databaseOptionsFromEnv, openDatabase } from "../db/client.ts";
import { DataDirLockedError } from "../db/data-dir-lock.ts";
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
  return closingAfter(await openMigratedDatabase(env), work);
}

async function closingAfter<T>(database: Database, work: (database: Database) => Promise<T>): Promise<T> {
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

/**
 * A write command's work: on the database itself when the command can open it (PostgreSQL always; the embedded
 * database when no server holds it), else through the server running on that embedded database, which does the same
 * work on it (src/admin/running-server.ts). Only when neither can be done does the lock's message stand.
 */
export async function withDatabaseOrServer<T>(
  work: {
    onDatabase: (database: Database) => Promise<T>;
    throughServer: (server: AdminClient) => Promise<T>;
  },
  env: Env = readEnv(),
): Promise<T> {
  let database: Database;
  try {
    database = await openMigratedDatabase(env);
  } catch (error) {
    const server = error instanceof DataDirLockedError ? await findRunningServer(env.DATA_DIR) : undefined;
    if (!server) throw error;
    return work.throughServer(server);
  }
  return closingAfter(database, work.onDatabase);
}

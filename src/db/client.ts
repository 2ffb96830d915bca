// Opens the service's database: PostgreSQL through `pg` when a URL is given, otherwise PGlite (PostgreSQL
// compiled to WASM) in a data directory or in memory. Both speak the same SQL and run the same migrations.
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { pgliteOpenFailed, preparePgliteDataDir } from "./pglite-data-dir.ts";
import { pgliteTemplateArchive } from "./pglite-template.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = "pglite" | "postgres";

export type DatabaseOptions =
  | { kind: "postgres"; url: string; poolSize?: number }
  | {
      kind: "pglite";
      dataDir: string;
      /** The directory's lock, when the caller took it already (lockEmbeddedDatabase); released on close. */
      lock?: DataDirLock;
    }
  | { kind: "pglite"; memory: true };

export interface QueryOptions {
  /**
   * Runs `text` as a named prepared statement on PostgreSQL: each connection parses it once, and PostgreSQL may keep
   * its plan. One name must always mean one text. PGlite ignores it.
   */
  name?: string;
}

export interface Database {
  readonly kind: DatabaseKind;
  /** Drizzle over the same connection(s). */
  readonly db: Db;
  /** Raw parameterised SQL for hot read paths; rows come back as plain objects. */
  query<Row extends Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /** A session-level advisory lock held on a dedicated connection until `release` is called. */
  tryAdvisoryLock(key: bigint): Promise<{ release(): Promise<void> } | null>;
  /** Runs `fn` while holding a session-level advisory lock, waiting for it if another session has it. */
  withAdvisoryLock<T>(key: bigint, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// PostgreSQL returns int8 and numeric as strings; keep them strings so bigint-sized values never become doubles.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite("memory" in options ? undefined : options);
}

/**
 * Takes the embedded database's directory lock now (data-dir-lock.ts), for a caller that must know it holds the
 * directory before it starts anything else; the database opened with the returned options owns the lock.
 */
export function lockEmbeddedDatabase(options: DatabaseOptions): DatabaseOptions {
  if (options.kind !== "pglite" || "memory" in options || options.lock) return options;
  return { ...options, lock: acquireDataDirLock(options.dataDir) };
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    async query(text, params, options) {
      const result = options?.name
        ? await pool.query({ name: options.name, text, values: params as unknown[] })
        : await pool.query(text, params as unknown[]);
      return result.rows;
    },
    async tryAdvisoryLock(key) {
      const client = await pool.connect();
      try {
        const result = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [
          key.toString(),
        ]);
        if (!result.rows[0]?.locked) {
          client.release();
          return null;
        }
      } catch (error) {
        client.release();
        throw error;
      }
      return {
        async release() {
          try {
            await client.query("select pg_advisory_unlock($1)", [key.toString()]);
          } finally {
            client.release();
          }
        },
      };
    },
    async withAdvisoryLock(key, fn) {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [key.toString()]);
        try {
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key.toString()]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(directory: { dataDir: string; lock?: DataDirLock } | undefined): Promise<Database> {
  // One process per data directory: the lock comes before anything reads or writes the directory.
  const lock = directory ? (directory.lock ?? acquireDataDirLock(directory.dataDir)) : undefined;
  let client: PGlite;
  try {
    client = await startPglite(directory?.dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: "pglite",
    db,
    async query(text, params) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as never;
    },
    // PGlite is a single in-process connection: whoever holds this process holds the lock.
    async tryAdvisoryLock() {
      return { async release() {} };
    },
    withAdvisoryLock: (_key, fn) => fn(),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function startPglite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir) preparePgliteDataDir(dataDir);
  // In memory, the template comes as an archive to load (no initdb either).
  const archive = dataDir ? undefined : await pgliteTemplateArchive();
  try {
    // One options object: PGlite ignores the options argument when the data directory argument is undefined.
    const client = new PGlite({
      ...(dataDir ? { dataDir } : {}),
      ...(archive ? { loadDataDir: archive } : {}),
      // Same string representation of int8/numeric as on PostgreSQL.
      parsers: { 20: (value: string) => value, 1700: (value: string) => value },
    });
    await client.waitReady;
    return client;
  } catch (error) {
    throw dataDir ? pgliteOpenFailed(dataDir, error) : error;
  }
}

/** Reads the database options from the environment: `DATABASE_URL`, else PGlite under `DATA_DIR`. */
export function databaseOptionsFromEnv(
  env: { DATABASE_URL?: string | undefined; DATA_DIR?: string | undefined },
  defaultDataDir: string,
): DatabaseOptions {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "pglite", dataDir: `${env.DATA_DIR ?? defaultDataDir}/db` };
}

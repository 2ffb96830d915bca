// A suite's own database, apart from the partner suite's `sluice_bench` and from everyone else's: PostgreSQL
// database `sluice_bench_<name>` (created and dropped here only) or a PGlite data directory under
// `.data-bench/<name>/`. `serveEnv` is what `sluice serve` needs to use it.
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { BENCH_DATA_DIR, type BenchDatabaseKind } from "../dataset/store.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The PostgreSQL server; override with BENCH_POSTGRES_URL (its database part is ignored), as the partner suite. */
const POSTGRES_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface OwnDatabase {
  kind: BenchDatabaseKind;
  /** For the output: `host/database` or the PGlite directory. */
  location: string;
  /**
   * Environment of `sluice serve`: DATABASE_URL on PostgreSQL; on PGlite an empty DATABASE_URL (so one in the
   * bench's own environment cannot leak in) and DATA_DIR, under which serve opens `db/`.
   */
  serveEnv: Record<string, string>;
  /** Drops everything: the next `open` starts from an empty database. */
  reset(): Promise<void>;
  /** Opens (creating if needed) without migrating. */
  openUnmigrated(): Promise<Database>;
  /** Opens (creating if needed) and migrates. */
  open(): Promise<Database>;
  /** What the output names: "PostgreSQL 15.x (host/db)" or "PGlite x.y (in the server's process)". */
  version(): Promise<string>;
}

export function ownDatabase(kind: BenchDatabaseKind, name: string): OwnDatabase {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  const migrated = async (database: Database) => {
    try {
      await migrate(database);
      return database;
    } catch (error) {
      await database.close();
      throw error;
    }
  };
  if (kind === "pglite") {
    const dataDir = `${BENCH_DATA_DIR}/${name}`;
    const databaseDir = `${dataDir}/db`;
    return {
      kind,
      location: databaseDir,
      serveEnv: { DATABASE_URL: "", DATA_DIR: dataDir },
      reset: async () => rmSync(databaseDir, { recursive: true, force: true }),
      openUnmigrated: () => openDatabase({ kind: "pglite", dataDir: databaseDir }),
      async open() {
        return migrated(await this.openUnmigrated());
      },
      async version() {
        const manifest = JSON.parse(
          readFileSync(`${ROOT}node_modules/@electric-sql/pglite/package.json`, "utf8"),
        ) as { version: string };
        return `PGlite ${manifest.version} (in the server's process)`;
      },
    };
  }
  const databaseName = `sluice_bench_${name}`;
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${databaseName}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    kind,
    location: `${url.host}/${databaseName}`,
    serveEnv: { DATABASE_URL: url.toString() },
    reset: () =>
      admin(async (client) => {
        await client.query(`drop database if exists ${databaseName} with (force)`);
      }),
    async openUnmigrated() {
      await admin(async (client) => {
        const exists = await client.query("select 1 from pg_database where datname = $1", [databaseName]);
        if (exists.rowCount === 0) await client.query(`create database ${databaseName}`);
      });
      return openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
    },
    async open() {
      return migrated(await this.openUnmigrated());
    },
    version: () =>
      admin(async (client) => {
        const result = await client.query<{ server_version: string }>("show server_version");
        return `PostgreSQL ${result.rows[0]?.server_version ?? "?"} (${url.host}/${databaseName})`;
      }),
  };
}

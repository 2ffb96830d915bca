// The benchmark's databases, each apart from everyone else's: a PostgreSQL database on the bench server
// (created and dropped here only; no other database there is touched) or a PGlite data directory under
// `.data-bench/` (gitignored). A suite's own is `sluice_bench_<name>` or `.data-bench/<name>/`; the partner
// suite's dataset lives in `sluice_bench` or `.data-bench/pglite/` (dataset/store.ts). `serveEnv` is what
// `sluice serve` needs to use one. `open` migrates with the build that will serve it (lib/served-build.ts).
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { migrateWithServedBuild, otherServedMigrations } from "./served-build.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BENCH_DATA_DIR = `${ROOT}.data-bench`;

/** The PostgreSQL server; override with BENCH_POSTGRES_URL (its database part is ignored). */
const POSTGRES_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  kind: BenchDatabaseKind;
  /** For the output: `host/database` or the PGlite directory. */
  location: string;
  /** Environment of `sluice serve` on this database. */
  serveEnv: Record<string, string>;
  /** Drops everything: the next `open` starts from an empty database. */
  reset(): Promise<void>;
  /** Opens (creating if needed) without migrating: for reading the marker of a possibly older schema. */
  openUnmigrated(): Promise<Database>;
  /**
   * Opens (creating if needed) and migrates: with this checkout's migrations, or, when BENCH_SLUICE_ROOT serves a
   * build with other migrations, by that build's `sluice migrate`.
   */
  open(): Promise<Database>;
  /** What the output names: "PostgreSQL 15.x (host/db)" or "PGlite x.y (in the server's process)". */
  version(): Promise<string>;
}

/** A suite's own database, `name` being the suite's (lower-case letters, digits, underscores). */
export function ownDatabase(kind: BenchDatabaseKind, name: string): BenchDatabase {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  // An empty DATABASE_URL on PGlite, so one in the bench's own environment cannot leak into the server.
  return kind === "pglite"
    ? pgliteDatabase(`${BENCH_DATA_DIR}/${name}`, { DATABASE_URL: "" })
    : postgresDatabase(`sluice_bench_${name}`);
}

/** PostgreSQL database `name` on the bench server; `serveEnv` adds to its DATABASE_URL. */
export function postgresDatabase(name: string, serveEnv: Record<string, string> = {}): BenchDatabase {
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const openUnmigrated = async () => {
    await admin(async (client) => {
      const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (exists.rowCount === 0) await client.query(`create database ${name}`);
    });
    return openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
  };
  const env = { DATABASE_URL: url.toString(), ...serveEnv };
  return {
    kind: "postgres",
    location: `${url.host}/${name}`,
    serveEnv: env,
    reset: () =>
      admin(async (client) => {
        await client.query(`drop database if exists ${name} with (force)`);
      }),
    openUnmigrated,
    // `sluice migrate` wants the database to exist: an empty one is made first.
    open: () => migrated(openUnmigrated, env, async () => (await openUnmigrated()).close()),
    version: () =>
      admin(async (client) => {
        const result = await client.query<{ server_version: string }>("show server_version");
        return `PostgreSQL ${result.rows[0]?.server_version ?? "?"} (${url.host}/${name})`;
      }),
  };
}

/** PGlite at `${dataDir}/db`, where `sluice serve` opens it given DATA_DIR=dataDir; `serveEnv` adds to that. */
export function pgliteDatabase(dataDir: string, serveEnv: Record<string, string> = {}): BenchDatabase {
  const databaseDir = `${dataDir}/db`;
  const openUnmigrated = () => openDatabase({ kind: "pglite", dataDir: databaseDir });
  const env = { ...serveEnv, DATA_DIR: dataDir };
  return {
    kind: "pglite",
    location: databaseDir,
    serveEnv: env,
    reset: async () => rmSync(databaseDir, { recursive: true, force: true }),
    openUnmigrated,
    // No directory is made first: this checkout would make it a copy of its own migrated template.
    open: () => migrated(openUnmigrated, env, async () => {}),
    async version() {
      const manifest = JSON.parse(
        readFileSync(`${ROOT}node_modules/@electric-sql/pglite/package.json`, "utf8"),
      ) as { version: string };
      return `PGlite ${manifest.version} (in the server's process)`;
    },
  };
}

async function migrated(
  openUnmigrated: () => Promise<Database>,
  serveEnv: Record<string, string>,
  /** Before another build migrates: whatever its `sluice migrate` needs to exist. */
  prepareForServedBuild: () => Promise<void>,
): Promise<Database> {
  if (otherServedMigrations() !== undefined) {
    await prepareForServedBuild();
    await migrateWithServedBuild(serveEnv);
    return openUnmigrated();
  }
  const database = await openUnmigrated();
  try {
    await migrate(database);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

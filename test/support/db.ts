// Test databases: PGlite in memory always, and a fresh PostgreSQL database per call when TEST_DATABASE_URL is
// set. Each PostgreSQL database is named after the worker and dropped on close, so workers never share one; an
// empty one (not migrated) for the command-line tests, whose process migrates it.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, type DatabaseKind, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";

/** The database kinds this run covers: PGlite, plus PostgreSQL when TEST_DATABASE_URL is set. */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

export async function createTestDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "pglite", memory: true });
    await migrate(database);
    return database;
  }
  const empty = await createEmptyPostgresDatabase();
  const database = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 30 });
  await migrate(database);
  const close = database.close.bind(database);
  return Object.assign(database, {
    async close() {
      await close();
      await empty.drop();
    },
  });
}

export interface EmptyPostgresDatabase {
  url: string;
  /** Drops it, connections and all. */
  drop(): Promise<void>;
}

/** A new PostgreSQL database on TEST_DATABASE_URL's server, not migrated (for a process that migrates it itself). */
export async function createEmptyPostgresDatabase(): Promise<EmptyPostgresDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? "0";
  const name = `sluice_test_w${worker}_${randomBytes(4).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A granted advisory lock of the database `database` is connected to, by its backend's pid. */
export interface AdvisoryLockHolder {
  pid: number;
  /** The bigint key (one-bigint key space), or `int4:int4` for a two-int4 key. */
  key: string;
}

/** The advisory locks granted in `database`'s database right now (read from pg_locks). */
export async function advisoryLockHolders(database: Database): Promise<AdvisoryLockHolder[]> {
  const rows = await database.query<{ pid: number; key: string }>(
    `select pid,
            case when objsubid = 1 then ((classid::bigint << 32) | objid::bigint)::text
                 else classid::text || ':' || objid::text end as key
       from pg_locks
      where locktype = 'advisory' and granted
        and database = (select oid from pg_database where datname = current_database())`,
  );
  return rows.map((row) => ({ pid: Number(row.pid), key: row.key }));
}

/** The points types stored in the embedded database in `databaseDir` (opened and closed again: the caller holds none). */
export async function embeddedPointsTypes(databaseDir: string): Promise<string[]> {
  const database = await openDatabase({ kind: "pglite", dataDir: databaseDir });
  try {
    const rows = await database.query<{ name: string }>("select name from points_types order by name");
    return rows.map((row) => row.name);
  } finally {
    await database.close();
  }
}

// Where each database kind keeps the benchmark dataset, and the marker that says a stored dataset is
// complete. PostgreSQL: its own database (`sluice_bench`), created and dropped here and nowhere else; other
// databases on the server are never touched. PGlite: a data directory under `.data-bench/` (gitignored).
// The marker row is written last, after every snapshot has committed: a run that died half-way leaves no
// marker, and the next run starts over.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";

export type BenchDatabaseKind = "postgres" | "pglite";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BENCH_DATA_DIR = `${ROOT}.data-bench`;

/** The server the benchmark database lives on; override with BENCH_POSTGRES_URL (its database part is ignored). */
const POSTGRES_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const BENCH_DATABASE_NAME = "sluice_bench";

export interface BenchDatabase {
  kind: BenchDatabaseKind;
  /** Human-readable location, for the output. */
  location: string;
  /** Environment of `sluice serve` on this database (DATA_DIR also holds the devnet's anvil state). */
  serveEnv: Record<string, string>;
  /** Drops everything stored: the next open starts from an empty database. */
  reset(): Promise<void>;
  /** Opens (creating if needed) and migrates the database. */
  open(): Promise<Database>;
  /** Opens the database as it is, without migrating: for reading the marker of a possibly older schema. */
  openUnmigrated(): Promise<Database>;
}

export function benchDatabase(kind: BenchDatabaseKind): BenchDatabase {
  return kind === "postgres" ? postgresBenchDatabase() : pgliteBenchDatabase();
}

function postgresBenchDatabase(): BenchDatabase {
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${BENCH_DATABASE_NAME}`;
  const databaseUrl = url.toString();
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    kind: "postgres",
    location: `${url.host}/${BENCH_DATABASE_NAME}`,
    serveEnv: { DATABASE_URL: databaseUrl, DATA_DIR: `${BENCH_DATA_DIR}/postgres` },
    reset: () =>
      admin(async (client) => {
        await client.query(`drop database if exists ${BENCH_DATABASE_NAME} with (force)`);
      }),
    async open() {
      return openMigrated(await this.openUnmigrated());
    },
    async openUnmigrated() {
      await admin(async (client) => {
        const exists = await client.query("select 1 from pg_database where datname = $1", [
          BENCH_DATABASE_NAME,
        ]);
        if (exists.rowCount === 0) await client.query(`create database ${BENCH_DATABASE_NAME}`);
      });
      return openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
    },
  };
}

function pgliteBenchDatabase(): BenchDatabase {
  const dataDir = `${BENCH_DATA_DIR}/pglite`;
  // `sluice serve` opens PGlite at `${DATA_DIR}/db`.
  const databaseDir = `${dataDir}/db`;
  return {
    kind: "pglite",
    location: databaseDir,
    serveEnv: { DATA_DIR: dataDir },
    async reset() {
      rmSync(databaseDir, { recursive: true, force: true });
    },
    async open() {
      return openMigrated(await this.openUnmigrated());
    },
    openUnmigrated: () => openDatabase({ kind: "pglite", dataDir: databaseDir }),
  };
}

async function openMigrated(database: Database): Promise<Database> {
  try {
    await migrate(database);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

const MIGRATIONS_DIR = `${ROOT}src/db/migrations`;

/**
 * A hash of the migrations the dataset was written under. drizzle re-applies a migration whose file changed,
 * which fails on a database that already has its tables, so a changed schema means a new dataset.
 */
export function schemaFingerprint(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: "utf8" }).sort()) {
    if (!file.endsWith(".sql") && !file.endsWith("_journal.json")) continue;
    hash.update(file).update(readFileSync(`${MIGRATIONS_DIR}/${file}`));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The facts of a complete dataset generated from `fingerprint`, or undefined when there is none. */
export async function readMarker<Facts>(database: Database, fingerprint: string): Promise<Facts | undefined> {
  const [table] = await database.query<{ present: boolean }>(
    "select to_regclass('bench_dataset') is not null as present",
  );
  if (!table?.present) return undefined;
  const rows = await database.query<{ facts: Facts }>(
    "select facts from bench_dataset where fingerprint = $1",
    [fingerprint],
  );
  return rows[0]?.facts;
}

export async function writeMarker(database: Database, fingerprint: string, facts: unknown): Promise<void> {
  await database.query(
    `create table if not exists bench_dataset (
       fingerprint text primary key, facts jsonb not null, completed_at timestamptz not null default now())`,
  );
  await database.query("insert into bench_dataset (fingerprint, facts) values ($1, $2)", [
    fingerprint,
    JSON.stringify(facts),
  ]);
}

/** Fresh statistics and visibility map, as autovacuum would have them on a database that has been up a while. */
export async function vacuumAnalyze(database: Database): Promise<void> {
  await database.query("vacuum analyze");
}

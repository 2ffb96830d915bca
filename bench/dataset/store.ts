// Where each database kind keeps the partner dataset (PostgreSQL: database `sluice_bench`; PGlite:
// `.data-bench/pglite/`, both made and dropped through lib/bench-databases.ts), and the marker that says a stored
// dataset is complete. The marker row is written last, after every snapshot has committed: a run that died
// half-way leaves no marker, and the next run starts over.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Database } from "../../src/db/client.ts";
import {
  BENCH_DATA_DIR,
  type BenchDatabase,
  pgliteDatabase,
  postgresDatabase,
} from "../lib/bench-databases.ts";

export type BenchDatabaseKind = "postgres" | "pglite";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const BENCH_DATABASE_NAME = "sluice_bench";

/** The partner dataset's database. */
export function benchDatabase(kind: BenchDatabaseKind): BenchDatabase {
  // `sluice serve` runs the devnet here: DATA_DIR holds its anvil state (with PGlite, next to the database).
  return kind === "postgres"
    ? postgresDatabase(BENCH_DATABASE_NAME, { DATA_DIR: `${BENCH_DATA_DIR}/postgres` })
    : pgliteDatabase(`${BENCH_DATA_DIR}/pglite`);
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

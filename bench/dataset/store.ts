// Where each database kind keeps the partner dataset (PostgreSQL: database `sluice_bench`; PGlite:
// `.data-bench/pglite/`, both made and dropped through lib/bench-databases.ts), and the marker that says a stored
// dataset is complete. The marker row is written last, after every snapshot has committed: a run that died
// half-way leaves no marker, and the next run starts over. Also which database holds the orders dataset for the build
// being served (`ordersDatabase`).
import type { Database } from "../../src/db/client.ts";
import {
  BENCH_DATA_DIR,
  type BenchDatabase,
  ownDatabase,
  pgliteDatabase,
  postgresDatabase,
} from "../lib/bench-databases.ts";
import { migrationsFingerprint, otherServedMigrations, servedRoot } from "../lib/served-build.ts";
import { ORDERS_DATABASE } from "./orders-plan.ts";

export type BenchDatabaseKind = "postgres" | "pglite";

export const BENCH_DATABASE_NAME = "sluice_bench";

/** The partner dataset's database. */
export function benchDatabase(kind: BenchDatabaseKind): BenchDatabase {
  // `sluice serve` runs the devnet here: DATA_DIR holds its anvil state (with PGlite, next to the database).
  return kind === "postgres"
    ? postgresDatabase(BENCH_DATABASE_NAME, { DATA_DIR: `${BENCH_DATA_DIR}/postgres` })
    : pgliteDatabase(`${BENCH_DATA_DIR}/pglite`);
}

/**
 * The orders dataset's database. Served by a build with other migrations (BENCH_SLUICE_ROOT: an A/B run), it is
 * one of that build's own, `sluice_bench_orders_<its migrations' hash>` (`.data-bench/orders_<hash>/`), migrated by
 * that build: each build keeps its dataset and neither regenerates the other's.
 */
export function ordersDatabase(kind: BenchDatabaseKind): BenchDatabase {
  const other = otherServedMigrations();
  return ownDatabase(kind, other === undefined ? ORDERS_DATABASE : `${ORDERS_DATABASE}_${other}`);
}

/** The hash of the migrations the build serving (BENCH_SLUICE_ROOT, else this checkout) writes its schema with. */
export function servedSchemaFingerprint(): string {
  return migrationsFingerprint(servedRoot());
}

/**
 * A hash of the migrations the dataset was written under (this checkout's). drizzle re-applies a migration whose
 * file changed, which fails on a database that already has its tables, so a changed schema means a new dataset.
 */
export function schemaFingerprint(): string {
  return migrationsFingerprint();
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

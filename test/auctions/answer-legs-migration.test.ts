// Migration 0007 on a database that already holds rounds, on PGlite and on PostgreSQL: an answer stored before it
// keeps every value and reads `offered_legs` null (its legs were never recorded), and one stored after keeps its legs.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { type DatabaseKind, openDatabase } from "../../src/db/client.ts";
import { packagePath } from "../../src/package-root.ts";
import { createEmptyPostgresDatabase, databaseKinds, type EmptyPostgresDatabase } from "../support/db.ts";

const MIGRATIONS = packagePath("src", "db", "migrations");
const LEGS_MIGRATION = "0007_answer_legs";

/** The migrations folder as it was before 0007: every file but it, and a journal without its entry. */
function migrationsBeforeLegs(): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), "sluice-migrations-"));
  cpSync(MIGRATIONS, folder, { recursive: true });
  rmSync(join(folder, `${LEGS_MIGRATION}.sql`));
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  // Only what came before 0007: later helpers' migrations (0008…) are not part of that state either.
  const index = journal.entries.findIndex((entry) => entry.tag === LEGS_MIGRATION);
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A database with no migration applied (not the migrated template the test helpers start from), and its migrator. */
interface BareDatabase {
  query<Row extends Record<string, unknown>>(text: string): Promise<Row[]>;
  migrate(migrationsFolder: string): Promise<void>;
}

async function bareDatabase(kind: DatabaseKind, cleanups: Array<() => Promise<void>>): Promise<BareDatabase> {
  if (kind === "pglite") {
    // Same int8/numeric representation as src/db/client.ts gives PGlite.
    const client = new PGlite({ parsers: { 20: (value: string) => value, 1700: (value: string) => value } });
    cleanups.push(() => client.close());
    const db = drizzlePglite(client);
    return {
      query: async (text) => (await client.query(text)).rows as never,
      migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }),
    };
  }
  const empty: EmptyPostgresDatabase = await createEmptyPostgresDatabase();
  cleanups.push(() => empty.drop());
  const database = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 2 });
  cleanups.push(() => database.close());
  return {
    query: (text) => database.query(text),
    migrate: (migrationsFolder) => migratePg(database.db as never, { migrationsFolder }),
  };
}

const ANSWER_COLUMNS =
  "request_id, round, solver_id, quote_id, outcome, reason, detail, latency_ms, amount_out, legs, created_at";

describe.each(databaseKinds)("migration 0007 (offered legs) on stored rounds (%s)", (kind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("leaves answers stored before it with null legs and every other value, and stores legs after it", async () => {
    const before = migrationsBeforeLegs();
    cleanups.push(async () => before.remove());
    const database = await bareDatabase(kind, cleanups);
    await database.migrate(before.folder);

    await database.query(
      `insert into solver_answers (${ANSWER_COLUMNS}) values
         ('6f1c2a54-3b9e-4d2f-9a61-0c8e5b7d4a10', 'quote', 'ext_a', '0b9f6f3e-2a4c-4d1e-8b7a-5c3d2e1f0a9b',
          'quoted', null, null, 12.5, 990000, 2, '2026-11-01T00:00:00Z')`,
    );
    const legsColumn = () =>
      database.query(
        "select 1 from information_schema.columns where table_name = 'solver_answers' and column_name = 'offered_legs'",
      );
    expect(await legsColumn()).toHaveLength(0);
    await database.migrate(MIGRATIONS);
    expect(await legsColumn()).toHaveLength(1);

    await database.query(
      `insert into solver_answers (${ANSWER_COLUMNS}, offered_legs) values
         ('7f1c2a54-3b9e-4d2f-9a61-0c8e5b7d4a10', 'order', 'ext_b', '0b9f6f3e-2a4c-4d1e-8b7a-5c3d2e1f0a9b',
          'rejected', 'timeout', 'late', 1000, null, 1, '2026-11-02T00:00:00Z',
          '[{"adapter": "0x00000000000000000000000000000000000000a1", "maxAssets": "5", "maxRate": "7"}]')`,
    );
    const rows = await database.query<Record<string, unknown>>(
      "select solver_id, outcome, latency_ms, amount_out::text as amount_out, legs, offered_legs from solver_answers order by id",
    );
    expect(rows).toEqual([
      {
        solver_id: "ext_a",
        outcome: "quoted",
        latency_ms: 12.5,
        amount_out: "990000",
        legs: 2,
        offered_legs: null,
      },
      {
        solver_id: "ext_b",
        outcome: "rejected",
        latency_ms: 1000,
        amount_out: null,
        legs: 1,
        offered_legs: [
          { adapter: "0x00000000000000000000000000000000000000a1", maxAssets: "5", maxRate: "7" },
        ],
      },
    ]);
  });
});

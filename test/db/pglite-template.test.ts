// New embedded databases start as a copy of a migrated template (initdb in WASM takes seconds); a copy must be a
// working, migrated database of its own, and a directory that already holds data is never touched.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { ensureMigratedPgliteTemplate, migrate } from "../../src/db/migrate.ts";
import {
  ensurePgliteTemplate,
  hasPgliteTemplate,
  pgliteTemplateDir,
  startFromPgliteTemplate,
} from "../../src/db/pglite-template.ts";

describe("PGlite template", () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "sluice-template-"));
    // The template lives in the package's dist/ (npm ci builds it); building it again is a no-op.
    await ensureMigratedPgliteTemplate();
  }, 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("is named after the PGlite version and the migrations, and is built once", async () => {
    expect(pgliteTemplateDir()).toMatch(/dist\/pglite-template-[0-9a-f]{16}$/);
    expect(hasPgliteTemplate()).toBe(true);
    let built = false;
    await ensurePgliteTemplate(async () => {
      built = true;
    });
    expect(built).toBe(false);
  });

  it("gives a new data directory a migrated database of its own", async () => {
    const first = join(scratch, "first", "db");
    const second = join(scratch, "second", "db");
    const one = await openDatabase({ kind: "pglite", dataDir: first });
    const other = await openDatabase({ kind: "pglite", dataDir: second });
    try {
      // Already migrated: the tables exist before migrate runs, and migrate finds nothing to do.
      const applied = await one.query<{ n: number }>(
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );
      expect(applied[0]!.n).toBeGreaterThan(0);
      await migrate(one);
      await one.query("insert into points_types (name, decimals) values ('copy-one', 18)");
      const elsewhere = await other.query("select 1 from points_types where name = 'copy-one'");
      expect(elsewhere).toEqual([]);
    } finally {
      await one.close();
      await other.close();
    }
    // Reopened, the copy keeps what was written to it.
    const reopened = await openDatabase({ kind: "pglite", dataDir: first });
    try {
      expect(await reopened.query("select name from points_types where name = 'copy-one'")).toEqual([
        { name: "copy-one" },
      ]);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  it("gives in-memory databases the migrated schema too, each its own", async () => {
    const one = await openDatabase({ kind: "pglite", memory: true });
    const other = await openDatabase({ kind: "pglite", memory: true });
    try {
      const applied = await one.query<{ n: number }>(
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );
      expect(applied[0]!.n).toBeGreaterThan(0);
      await one.query("insert into points_types (name, decimals) values ('memory-one', 18)");
      expect(await other.query("select 1 from points_types where name = 'memory-one'")).toEqual([]);
    } finally {
      await one.close();
      await other.close();
    }
  }, 60_000);

  it("copies only into a missing or empty directory and leaves no temporary copy behind", () => {
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    expect(startFromPgliteTemplate(empty)).toBe(true);
    expect(readdirSync(empty)).toContain("PG_VERSION");

    const used = join(scratch, "used");
    mkdirSync(used);
    writeFileSync(join(used, "keep.txt"), "mine");
    expect(startFromPgliteTemplate(used)).toBe(false);
    expect(readdirSync(used)).toEqual(["keep.txt"]);

    expect(readdirSync(scratch).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});

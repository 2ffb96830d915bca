// drizzle's migrator applies only the migrations newer than the newest one a database recorded. A database migrated by
// a build whose migration sorts after some of this build's (another branch, a newer release) would silently miss
// them and fail later on a missing column: migrate refuses it, naming what never ran.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { MigrationsSkippedError, migrate } from "../../src/db/migrate.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

describe.each(databaseKinds)("migrate (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("runs again on a migrated database as a no-op", async () => {
    await expect(migrate(database)).resolves.toBeUndefined();
  });

  it("refuses a database on which one of its migrations never ran, naming it", async () => {
    // As if a build that did not have 0006 yet but had a later one migrated this database.
    await database.query(
      `delete from drizzle.__drizzle_migrations where created_at = (
         select created_at from drizzle.__drizzle_migrations order by created_at offset 6 limit 1)`,
    );
    const refused = await migrate(database).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MigrationsSkippedError);
    expect((refused as MigrationsSkippedError).skipped).toEqual(["0006_order_amounts"]);
    expect((refused as Error).message).toContain("0006_order_amounts of this build never ran on it");
  });
});

// The database's readiness checks: it answers a query, and every migration of this build has run on it.
import type { Database } from "../db/client.ts";
import { pendingMigrations } from "../db/migrate.ts";
import type { ReadinessCheck } from "./checks.ts";

export function databaseCheck(database: Database): ReadinessCheck {
  return {
    name: "database",
    async run() {
      await database.query("select 1");
      return { ok: true, message: `${database.kind} answers` };
    },
  };
}

/** Fails while a migration of this build is not applied (a replica of a newer build migrates at its start). */
export function migrationsCheck(database: Database): ReadinessCheck {
  return {
    name: "migrations",
    async run() {
      const { pending, applied } = await pendingMigrations(database);
      if (pending.length > 0)
        return {
          ok: false,
          message: `not applied: ${pending.join(", ")}`,
          details: { pending: pending.length, applied },
        };
      return { ok: true, message: `all ${applied} applied`, details: { pending: 0, applied } };
    },
  };
}

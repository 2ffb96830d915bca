// The build a suite serves: this checkout, or another one named by BENCH_SLUICE_ROOT (an A/B run of two builds,
// read at each use). A database the bench migrates before that build serves it is migrated by that build's own
// `sluice migrate` when its migrations are not this checkout's: a newer build's schema under an older build is
// neither what the older one runs on (migrations it never had: dropped triggers, new tables) nor always accepted.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The checkout whose `bin/sluice.mjs` serves: BENCH_SLUICE_ROOT, else this one. */
export function servedRoot(): string {
  return process.env.BENCH_SLUICE_ROOT ?? ROOT;
}

/**
 * The Node flags a checkout's `bin/sluice.mjs` runs with through its shebang (`#!/usr/bin/env -S node --flag …`),
 * which `npm start` and the process-manager command pass too: a bench starts `sluice serve` with them, as an
 * operator's server runs. None for a build whose shebang is plain `node`.
 */
export function nodeFlagsOf(root: string = servedRoot()): string[] {
  const shebang = readFileSync(`${root}/bin/sluice.mjs`, "utf8").split("\n", 1)[0]!;
  const match = /^#!\/usr\/bin\/env -S node (.+)$/.exec(shebang);
  return match ? match[1]!.trim().split(/\s+/) : [];
}

/**
 * A hash of a checkout's migrations (their file names and contents). drizzle re-applies a migration whose file
 * changed, which fails on a database that already has its tables, so other migrations mean another database.
 */
export function migrationsFingerprint(root: string = ROOT): string {
  const folder = `${root}/src/db/migrations`;
  const hash = createHash("sha256");
  for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" }).sort()) {
    if (!file.endsWith(".sql") && !file.endsWith("_journal.json")) continue;
    hash.update(file).update(readFileSync(`${folder}/${file}`));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The served build's migrations' hash, or undefined when they are this checkout's. */
export function otherServedMigrations(): string | undefined {
  const served = migrationsFingerprint(servedRoot());
  return served === migrationsFingerprint() ? undefined : served;
}

/** Runs the served build's `sluice migrate` on the database `serveEnv` names (DATABASE_URL, or PGlite's DATA_DIR). */
export async function migrateWithServedBuild(serveEnv: Record<string, string>): Promise<void> {
  await promisify(execFile)(process.execPath, ["bin/sluice.mjs", "migrate"], {
    cwd: servedRoot(),
    // No DATABASE_URL of the bench's own environment may stand in for a PGlite directory.
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn", ...serveEnv },
  });
}

// A migrated, empty PGlite data directory kept in dist/ to start new embedded databases from. PGlite creates a
// data directory by running initdb inside WASM, which takes 3–5 s on a 2-core machine; copying a template takes a
// few hundred ms (an in-memory database loads it as an archive). `npm ci` builds the template (the package's
// `prepare` script runs `sluice prepare`); without one, a new database is created the slow way and nothing else
// changes.
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { packagePath } from "../package-root.ts";

const MIGRATIONS_DIR = packagePath("src", "db", "migrations");

/**
 * Where the template for this PGlite version and these migrations lives: the name carries a hash of both, so a
 * template never serves a schema or an engine it was not made with.
 */
export function pgliteTemplateDir(): string {
  const hash = createHash("sha256");
  hash.update(pgliteVersion());
  for (const file of listFiles(MIGRATIONS_DIR)) {
    hash.update(file);
    hash.update(readFileSync(join(MIGRATIONS_DIR, file)));
  }
  return packagePath("dist", `pglite-template-${hash.digest("hex").slice(0, 16)}`);
}

export function hasPgliteTemplate(dir = pgliteTemplateDir()): boolean {
  return existsSync(join(dir, "PG_VERSION"));
}

/**
 * Builds the template if it is missing: `create` makes a migrated, closed database in the directory it is given,
 * which becomes the template by an atomic rename (processes building at once leave one of theirs).
 */
export async function ensurePgliteTemplate(create: (dataDir: string) => Promise<void>): Promise<string> {
  const dir = pgliteTemplateDir();
  if (hasPgliteTemplate(dir)) return dir;
  const building = `${dir}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  await create(building);
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  // Templates of earlier migrations or PGlite versions are 40 MB each and serve nothing any more.
  for (const entry of readdirSync(dirname(dir))) {
    if (/^pglite-template-[0-9a-f]+$/.test(entry) && join(dirname(dir), entry) !== dir)
      rmSync(join(dirname(dir), entry), { recursive: true, force: true });
  }
  return dir;
}

/**
 * Starts a new data directory from the template: only when `dataDir` is missing or empty and a template exists.
 * Copied beside it and renamed into place, so a start cut off mid-copy never leaves half a database.
 */
export function startFromPgliteTemplate(dataDir: string): boolean {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const template = pgliteTemplateDir();
  if (!hasPgliteTemplate(template)) return false;
  const copying = `${dataDir}.${process.pid}.tmp`;
  rmSync(copying, { recursive: true, force: true });
  cpSync(template, copying, { recursive: true });
  // Empty when checked above; rmdir (not rm -r) so a directory that gained files since is never deleted.
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(copying, dataDir);
  return true;
}

let templateArchive: Promise<Blob | undefined> | undefined;

/**
 * The template as a tar archive, for in-memory databases (tests open dozens): made once per process from a copy
 * (opening the template itself would write to it); undefined without a template.
 */
export function pgliteTemplateArchive(): Promise<Blob | undefined> {
  // No template yet is not remembered: one built later in this process (new migrations, built on first use) is used.
  if (!templateArchive && !hasPgliteTemplate()) return Promise.resolve(undefined);
  templateArchive ??= (async () => {
    const scratch = mkdtempSync(join(tmpdir(), "sluice-pglite-template-"));
    try {
      const copy = join(scratch, "db");
      startFromPgliteTemplate(copy);
      const client = new PGlite({ dataDir: copy });
      await client.waitReady;
      const archive = await client.dumpDataDir("none");
      await client.close();
      return archive;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  })();
  return templateArchive;
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@electric-sql/pglite");
  // The package.json above the resolved entry (dist/index.cjs) names the version.
  let dir = dirname(entry);
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
    )
    .sort();
}

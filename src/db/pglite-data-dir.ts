// The embedded database's directory as PGlite is about to open it. PGlite runs initdb in any directory without a
// PG_VERSION file, over whatever is there: a directory that holds files but no PG_VERSION is a damaged (or foreign)
// one, not a new database, and opening it would silently replace the data. So only a missing or empty directory
// becomes a new database; a directory PGlite cannot open stops the start, named, and is left as it is.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startFromPgliteTemplate } from "./pglite-template.ts";

export class DataDirUnusableError extends Error {
  override name = "DataDirUnusableError";
  constructor(
    readonly dataDir: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(
      `cannot open the embedded database in ${dataDir}: ${reason}. The directory was left as it is: restore it ` +
        "from a backup, or move it away to start with a new, empty database",
      options,
    );
  }
}

/** Makes `dataDir` ready for PGlite: a new database where there is none, otherwise it must hold one. */
export function preparePgliteDataDir(dataDir: string): void {
  let entries: string[];
  try {
    entries = existsSync(dataDir) ? readdirSync(dataDir) : [];
  } catch (error) {
    throw new DataDirUnusableError(dataDir, (error as Error).message, { cause: error });
  }
  if (entries.length === 0) {
    // A new directory starts as a copy of the migrated template when there is one (initdb takes seconds).
    if (!startFromPgliteTemplate(dataDir)) mkdirSync(dataDir, { recursive: true });
    return;
  }
  if (!existsSync(join(dataDir, "PG_VERSION")))
    throw new DataDirUnusableError(
      dataDir,
      "it holds files but no database (no PG_VERSION), and PGlite would initialise a new one over them",
    );
}

/** The error for a directory PGlite failed to start on. */
export function pgliteOpenFailed(dataDir: string, error: unknown): DataDirUnusableError {
  const reason = error instanceof Error ? error.message : String(error);
  return new DataDirUnusableError(dataDir, `PGlite could not start on it (${reason})`, { cause: error });
}

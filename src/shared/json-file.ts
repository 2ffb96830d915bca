// JSON files other processes read (the devnet's record, endpoints and process list).
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes through a temporary file and a rename, so a crash never leaves half a file behind. A bigint is written as
 * its decimal string (a deployment's points amounts exceed 2^53; its schema reads them back from strings). `mode` (e.g. 0o600 for a
 * file with secrets) applies from the file's creation, so it is never readable by others even for a moment.
 */
export function writeJsonAtomically(path: string, value: unknown, options: { mode?: number } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    `${JSON.stringify(value, (_key, field: unknown) => (typeof field === "bigint" ? field.toString() : field), 2)}\n`,
    options.mode === undefined ? undefined : { mode: options.mode },
  );
  // A temporary file left by a crash keeps its old mode when written again.
  if (options.mode !== undefined) chmodSync(temporary, options.mode);
  renameSync(temporary, path);
}

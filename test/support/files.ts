// What is on disk under a directory, to compare before and after a process that must not write there.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file and directory under `dir` with its size and modification time: what a writer would change. */
export function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    const stat = lstatSync(join(dir, entry));
    files[entry] = stat.isDirectory() ? "dir" : `${stat.size} bytes, mtime ${stat.mtimeMs}`;
  }
  return files;
}

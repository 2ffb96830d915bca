// Where the package's own files are: deployments/, assets/, src/db/migrations and the shared fixtures beside the
// checkout. Resolved from this module, which sits one directory below the package root both as a source file
// (src/) and bundled into dist/ by bin/sluice.mjs, so every file is found the same way in both.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../", import.meta.url));

export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

#!/usr/bin/env -S node --max-semi-space-size=32
// The flag: V8's young generation up to 32 MB per semi-space (Node 20's default is 16). A busy server keeps many
// requests' objects alive across awaits; with the smaller one they outlive a scavenge, are copied and promoted,
// and the old generation's collector pays for them later, a large share of /quote's CPU at saturation. It costs
// at most 32 MB more of the heap, taken only under load. `npm start` and the process-manager command in
// docs/operators.md pass the same flag (test/process/node-flags.test.ts holds them together).
//
// Sluice runs from its TypeScript sources with no build step to forget: each start bundles src/ into
// dist/sluice-<hash>.mjs with esbuild (a few hundred ms; dependencies stay in node_modules) and runs that with
// plain Node. A TypeScript loader in the running process (tsx) would cost ~90 MB of RSS for its own thread and
// the transpiled sources. The file name carries the bundle's hash, so processes starting together never read a
// half-written file; bundles older than a day are removed.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "dist");
const DAY_MS = 24 * 60 * 60 * 1000;

const result = await build({
  entryPoints: [join(root, "src", "cli", "main.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  keepNames: true,
  write: false,
  logLevel: "error",
  outfile: join(outDir, "sluice.mjs"),
});
const code = result.outputFiles[0].contents;
const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
const bundle = join(outDir, `sluice-${hash}.mjs`);
mkdirSync(outDir, { recursive: true });
try {
  statSync(bundle);
} catch {
  const temporary = `${bundle}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, bundle);
}
for (const entry of readdirSync(outDir)) {
  const path = join(outDir, entry);
  // Only old bundles: dist/ also holds the embedded database's template (src/db/pglite-template.ts).
  if (path === bundle || !/^sluice-.*\.mjs/.test(entry)) continue;
  try {
    if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true });
  } catch {
    // Another start removed it first.
  }
}
await import(pathToFileURL(bundle).href);

// Builds dist/: one ES module (esbuild, viem left to the importer: it is a peer) and its declarations (the
// TypeScript compiler). Run by `npm run build` here, by `npm pack` (prepack), and by the repository's `npm ci`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PACKAGE_DIR = dirname(fileURLToPath(import.meta.url));
const SOURCE_DIR = join(PACKAGE_DIR, "src");

/** Writes `outDir`/index.js and its `.d.ts` files (index.d.ts the entry); returns `outDir`. */
export async function buildClient(outDir = join(PACKAGE_DIR, "dist")) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(SOURCE_DIR, "index.ts")],
    outfile: join(outDir, "index.js"),
    bundle: true,
    // Browsers and Node alike; viem is resolved where the client is used.
    platform: "neutral",
    format: "esm",
    target: "es2022",
    // Every package stays an import (only viem may be one: the repository's architecture test checks the sources).
    packages: "external",
    logLevel: "error",
  });
  await writeDeclarations(outDir);
  return outDir;
}

async function writeDeclarations(outDir) {
  const ts = (await import("typescript")).default;
  const program = ts.createProgram([join(SOURCE_DIR, "index.ts")], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir,
    rootDir: SOURCE_DIR,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: [],
  });
  // Only the emit's own diagnostics: type errors are the repository's `tsc --noEmit` (npm test), and a full check
  // here would type-check viem once more at every build.
  const problems = program.emit().diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length > 0) {
    const text = ts.formatDiagnostics(problems, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => "\n",
    });
    throw new Error(`the client's declarations did not build:\n${text}`);
  }
  // The sources import `./client.ts`; the declarations' importers resolve `./client.js` to client.d.ts
  // (the compiler's rewriteRelativeImportExtensions rewrites emitted JavaScript only).
  for (const file of readdirSync(outDir).filter((name) => name.endsWith(".d.ts"))) {
    const path = join(outDir, file);
    writeFileSync(path, readFileSync(path, "utf8").replace(/(from\s+"\.\/[\w.-]+)\.ts"/g, '$1.js"'));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = await buildClient(process.argv[2]);
  process.stdout.write(`@sluice/client built: ${outDir}\n`);
}

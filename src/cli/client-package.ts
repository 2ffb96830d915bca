// Builds dist/client, what `import … from "sluice/client"` loads (package.json `exports`): Node cannot import
// TypeScript from a package, so `sluice prepare` (run by `npm ci`) bundles src/client into one ES module with
// esbuild (viem left as the importer's own) and writes its declarations with the TypeScript compiler.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { packagePath } from "../package-root.ts";

export const CLIENT_SOURCE_DIR = packagePath("src", "client");

/** Writes `outDir`/index.js and its `.d.ts` files (index.d.ts the entry); returns `outDir`. */
export async function buildClientPackage(outDir: string = packagePath("dist", "client")): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(CLIENT_SOURCE_DIR, "index.ts")],
    outfile: join(outDir, "index.js"),
    bundle: true,
    // Browsers and Node alike; viem (its peer) is resolved where the client is used.
    platform: "neutral",
    format: "esm",
    target: "es2022",
    // Every package stays an import (only viem may be one: test/architecture checks the sources).
    packages: "external",
    logLevel: "error",
  });
  await writeDeclarations(outDir);
  return outDir;
}

/** The TypeScript compiler, or undefined where dev dependencies are not installed (`npm ci --omit=dev`). */
async function typescript() {
  try {
    return (await import("typescript")).default;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw error;
  }
}

async function writeDeclarations(outDir: string): Promise<void> {
  // A dev dependency: a production install (no TypeScript users there) gets the JavaScript alone, and is told.
  const ts = await typescript();
  if (!ts) {
    process.stderr.write("typescript is not installed: dist/client is built without its .d.ts files\n");
    return;
  }
  const program = ts.createProgram([join(CLIENT_SOURCE_DIR, "index.ts")], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir,
    rootDir: CLIENT_SOURCE_DIR,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: [],
  });
  // Only the emit's own diagnostics: type errors are `tsc --noEmit`'s (npm test), and a full check here would
  // type-check viem once more at every `npm ci`.
  const problems = program
    .emit()
    .diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
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

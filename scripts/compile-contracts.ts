// Compiles contracts/src with solc-js (the npm `solc` whose version equals the pragma; nothing is downloaded) and
// writes contracts/artifacts: one `<Name>.json` ({abi, bytecode}) per deployable contract, `index.ts` with the
// same ABIs `as const` (for viem's types) and bytecodes, and `manifest.json` with the sha256 of every source the
// compiler read, the compiler version and settings, and the sha256 of every artifact file.
// test/contracts/artifacts-fresh.test.ts recomputes the manifest from the sources without compiling.
//
//   npm run contracts            compile and write the artifacts
//   npm run contracts -- --check compile and fail if the committed artifacts differ
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCES_DIR = "contracts/src";
export const ARTIFACTS_DIR = "contracts/artifacts";
export const SOLC_VERSION = "0.8.28";

/** Deployable contracts that get an artifact, in the order index.ts lists them. */
export const ARTIFACT_CONTRACTS = [
  "Reactor",
  "Executor",
  "LiquidLaneAdapter",
  "AdapterFactory",
  "TestERC20",
  "TestUSDT",
  "TestVault",
  "TestERC1271Wallet",
  "NetworkRegistry",
  "OperatorRegistry",
  "VaultFactory",
  "OptInService",
  "Vault",
  "VaultTokenized",
  "NetworkRestakeDelegator",
  "OperatorSpecificDelegator",
  "FullRestakeDelegator",
  "PriceFeed",
] as const;
export type ArtifactContract = (typeof ARTIFACT_CONTRACTS)[number];

export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

/** Warnings we accept on purpose: `getMaxAssets` is nonpayable as in the reference ABI although it only reads. */
const EXPECTED_WARNINGS = [/restricted to view[\s\S]*function getMaxAssets\(/];

export interface Manifest {
  compiler: { package: "solc"; version: string };
  settings: typeof COMPILER_SETTINGS;
  /** sha256 of each source unit the compiler read, by source unit name. */
  sources: Record<string, string>;
  /** sha256 over compiler version, settings and sources: what the artifacts were built from. */
  inputHash: string;
  /** sha256 of each generated file in contracts/artifacts (manifest.json excepted). */
  artifacts: Record<string, string>;
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Our own source unit names (`contracts/src/...`, POSIX separators), sorted. */
export function listOwnSources(root = REPO_ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".sol")) out.push(relative(root, full).split(sep).join("/"));
    }
  };
  walk(join(root, SOURCES_DIR));
  return out.sort();
}

/** Where a source unit lives on disk: ours under the repository, `@scope/pkg/...` in node_modules. */
export function resolveSourceUnit(unit: string, root = REPO_ROOT): string {
  if (unit.startsWith(`${SOURCES_DIR}/`)) return join(root, unit);
  if (unit.startsWith("@openzeppelin/")) {
    const require = createRequire(join(root, "package.json"));
    const [scope, pkg, ...rest] = unit.split("/");
    const pkgJson = require.resolve(`${scope}/${pkg}/package.json`);
    return join(dirname(pkgJson), ...rest);
  }
  throw new Error(`cannot resolve source unit ${unit}`);
}

export function computeInputHash(
  version: string,
  settings: unknown,
  sources: Record<string, string>,
): string {
  const sorted = Object.fromEntries(Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return sha256(JSON.stringify({ version, settings, sources: sorted }));
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string; errorCode?: string }[];
  sources?: Record<string, unknown>;
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

interface Compiled {
  files: Map<string, string>;
  manifest: Manifest;
  warnings: string[];
}

async function compile(root = REPO_ROOT): Promise<Compiled> {
  const require = createRequire(join(root, "package.json"));
  const solcVersion: string = require("solc/package.json").version;
  if (solcVersion !== SOLC_VERSION) {
    throw new Error(`the npm solc is ${solcVersion}; the contracts need exactly ${SOLC_VERSION}`);
  }
  const solc = require("solc") as { compile(input: string, callbacks: unknown): string };

  const sources: Record<string, { content: string }> = {};
  for (const unit of listOwnSources(root)) {
    sources[unit] = { content: readFileSync(join(root, unit), "utf8") };
  }
  const input = { language: "Solidity", sources, settings: COMPILER_SETTINGS };
  const findImports = (path: string) => {
    try {
      const file = resolveSourceUnit(path, root);
      if (!existsSync(file)) return { error: `not found: ${path}` };
      return { contents: readFileSync(file, "utf8") };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const problems = output.errors ?? [];
  const errors = problems.filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  const warnings = problems
    .filter((e) => e.severity === "warning")
    .map((e) => e.formattedMessage)
    .filter((message) => !EXPECTED_WARNINGS.some((re) => re.test(message)));

  const sourceHashes: Record<string, string> = {};
  for (const unit of Object.keys(output.sources ?? {}).sort()) {
    sourceHashes[unit] = sha256(readFileSync(resolveSourceUnit(unit, root)));
  }

  const byName = new Map<string, { abi: unknown[]; bytecode: string }>();
  for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
    if (!unit.startsWith(`${SOURCES_DIR}/`)) continue;
    for (const [name, contract] of Object.entries(contracts)) {
      if (byName.has(name)) throw new Error(`two contracts are named ${name}`);
      byName.set(name, { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` });
    }
  }

  const files = new Map<string, string>();
  const indexParts = [
    "// Generated by scripts/compile-contracts.ts (`npm run contracts`) from contracts/src. Do not edit.",
    "",
  ];
  for (const name of ARTIFACT_CONTRACTS) {
    const contract = byName.get(name);
    if (!contract || contract.bytecode === "0x") throw new Error(`no bytecode for ${name}`);
    files.set(
      `${name}.json`,
      `${JSON.stringify({ abi: contract.abi, bytecode: contract.bytecode }, null, 2)}\n`,
    );
    const base = lowerFirst(name);
    indexParts.push(`export const ${base}Abi = ${JSON.stringify(contract.abi, null, 2)} as const;`, "");
    indexParts.push(`export const ${base}Bytecode: \`0x\${string}\` =\n  "${contract.bytecode}";`, "");
  }
  files.set("index.ts", indexParts.join("\n"));

  const artifacts: Record<string, string> = {};
  for (const [file, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1)))
    artifacts[file] = sha256(content);
  const manifest: Manifest = {
    compiler: { package: "solc", version: solcVersion },
    settings: COMPILER_SETTINGS,
    sources: sourceHashes,
    inputHash: computeInputHash(solcVersion, COMPILER_SETTINGS, sourceHashes),
    artifacts,
  };
  files.set("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  return { files, manifest, warnings };
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const started = Date.now();
  const { files, warnings } = await compile();
  for (const warning of warnings) console.warn(warning);
  const dir = join(REPO_ROOT, ARTIFACTS_DIR);
  const stale: string[] = [];
  for (const [file, content] of files) {
    const path = join(dir, file);
    const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    if (current === content) continue;
    if (check) stale.push(file);
    else writeFileSync(path, content);
  }
  const expected = new Set(files.keys());
  const extra = readdirSync(dir).filter((f) => !expected.has(f));
  if (check) {
    if (stale.length > 0 || extra.length > 0) {
      console.error(
        `contracts/artifacts is stale: ${[...stale, ...extra].join(", ")} — run \`npm run contracts\``,
      );
      process.exit(1);
    }
    console.log(`contracts/artifacts is up to date (${Date.now() - started} ms)`);
    return;
  }
  if (extra.length > 0) console.warn(`not generated by this script (remove them?): ${extra.join(", ")}`);
  console.log(
    `compiled ${ARTIFACT_CONTRACTS.length} contracts with solc ${SOLC_VERSION} into ${ARTIFACTS_DIR} ` +
      `(${warnings.length} warnings, ${Date.now() - started} ms)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

// The committed artifacts were compiled from the current sources with the pinned compiler and settings: the
// manifest's source hashes, compiler version, settings and input hash are recomputed from disk (without
// compiling), and every artifact file matches the hash the compile recorded. Fix a failure with `npm run contracts`.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ARTIFACT_CONTRACTS,
  ARTIFACTS_DIR,
  COMPILER_SETTINGS,
  computeInputHash,
  listOwnSources,
  type Manifest,
  REPO_ROOT,
  resolveSourceUnit,
  SOLC_VERSION,
  sha256,
} from "../../scripts/compile-contracts.ts";

const dir = join(REPO_ROOT, ARTIFACTS_DIR);
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
const hint = "contracts/artifacts is stale: run `npm run contracts` and commit the result";

describe("contract artifacts", () => {
  it("were built by the npm solc whose version equals the pragma, with the pinned settings", () => {
    const installed = createRequire(join(REPO_ROOT, "package.json"))("solc/package.json").version;
    expect(installed).toBe(SOLC_VERSION);
    expect(manifest.compiler.version, hint).toBe(SOLC_VERSION);
    expect(manifest.settings, hint).toEqual(COMPILER_SETTINGS);
    for (const unit of listOwnSources()) {
      expect(readFileSync(join(REPO_ROOT, unit), "utf8"), `${unit} pragma`).toContain(
        `pragma solidity ${SOLC_VERSION};`,
      );
    }
  });

  it("cover exactly the current sources, byte for byte", () => {
    const own = listOwnSources();
    const recorded = Object.keys(manifest.sources).filter((unit) => unit.startsWith("contracts/"));
    expect(recorded.sort(), hint).toEqual(own);
    for (const [unit, hash] of Object.entries(manifest.sources)) {
      expect(sha256(readFileSync(resolveSourceUnit(unit))), `${unit} changed: ${hint}`).toBe(hash);
    }
    expect(computeInputHash(manifest.compiler.version, manifest.settings, manifest.sources), hint).toBe(
      manifest.inputHash,
    );
  });

  it("are the files the compile wrote, unedited", () => {
    const expected = [...ARTIFACT_CONTRACTS.map((name) => `${name}.json`), "index.ts"].sort();
    expect(Object.keys(manifest.artifacts).sort(), hint).toEqual(expected);
    expect(readdirSync(dir).sort(), hint).toEqual([...expected, "manifest.json"].sort());
    for (const [file, hash] of Object.entries(manifest.artifacts)) {
      expect(sha256(readFileSync(join(dir, file), "utf8")), `${file}: ${hint}`).toBe(hash);
    }
  });
});

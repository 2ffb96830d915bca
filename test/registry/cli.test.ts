// `sluice import registry` end to end: the real binary, the real tree, a real database (PGlite in a data
// directory; PostgreSQL too when TEST_DATABASE_URL is set).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { readGeneration } from "../../src/db/generations.ts";
import { overlayToFile } from "../../src/registry/overlay.ts";
import type { ImportReport } from "../../src/registry/report.ts";
import { readApprovedVaults, readCurators, readNetworks } from "../../src/registry/repository.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase } from "../support/db.ts";
import { FIXTURE_TREE, fixtureOverlay } from "./support.ts";

describe("sluice import registry", () => {
  let workDir: string;
  let overlayFile: string;
  let approvedCount: number;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-cli-registry-"));
    const overlay = await fixtureOverlay();
    approvedCount = [...overlay.values()].filter((v) => v.approved).length;
    overlayFile = join(workDir, "overlay.json");
    writeFileSync(overlayFile, JSON.stringify(overlayToFile(overlay)));
    writeFileSync(join(workDir, "bad-overlay.json"), JSON.stringify({ vaults: { "0x12": {} } }));
  });

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("imports the public tree into the embedded database and prints the report", async () => {
    const dataDir = join(workDir, "data");
    const result = await runSluice(["import", "registry", FIXTURE_TREE, "--overlay", overlayFile], {
      DATA_DIR: dataDir,
      REGISTRY_ICON_BASE_URL: "https://cdn.example.org/meta",
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(pglite)");
    expect(result.stdout).toMatch(/networks +21 imported, 0 skipped/);
    expect(result.stdout).toMatch(/operators +121 imported, 0 skipped/);
    expect(result.stdout).toMatch(/vaults +159 imported, 0 skipped/);
    expect(result.stdout).toMatch(/curators +19 imported, 0 skipped/);
    expect(result.stdout).toContain(
      'repaired 1 × swapped name and url of link "tBTC detailed system architecture": 0x0c969cec0729487d264716e55f232b404299032c',
    );
    expect(result.stdout).toContain(`159 vaults with on-chain data, ${approvedCount} approved (served)`);
    expect(result.stdout).toContain("not imported  tokens/: token metadata, not a registry");

    const database = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") });
    try {
      expect(await readApprovedVaults(database)).toHaveLength(approvedCount);
      expect(await readCurators(database)).toHaveLength(19);
      const networks = await readNetworks(database);
      expect(networks).toHaveLength(21);
      expect(networks.every((n) => n.meta.icon?.startsWith("https://cdn.example.org/meta/networks/"))).toBe(
        true,
      );
    } finally {
      await database.close();
    }

    // An invalid overlay is refused before the database is opened: the stored registry stays.
    const refused = await runSluice(
      ["import", "registry", FIXTURE_TREE, "--overlay", join(workDir, "bad-overlay.json")],
      { DATA_DIR: dataDir },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("vaults.0x12: key must be a vault address");
    const after = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") });
    try {
      expect(await readGeneration(after, "registry")).toBe(1);
    } finally {
      await after.close();
    }
  });

  it("requires --overlay and a metadata tree", async () => {
    const dataDir = join(workDir, "unused");
    const noOverlay = await runSluice(["import", "registry", FIXTURE_TREE], { DATA_DIR: dataDir });
    expect(noOverlay.code).not.toBe(0);
    expect(noOverlay.stderr).toContain("--overlay");
    const notATree = await runSluice(["import", "registry", workDir, "--overlay", overlayFile], {
      DATA_DIR: dataDir,
    });
    expect(notATree.code).toBe(1);
    expect(notATree.stderr).toContain("not a metadata tree");
    // Inputs are validated before the database is opened, so not even an empty one was created.
    expect(existsSync(dataDir)).toBe(false);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "imports into PostgreSQL (DATABASE_URL) and prints the report as JSON",
    async () => {
      const { url, drop } = await createEmptyPostgresDatabase();
      try {
        const result = await runSluice(
          ["import", "registry", FIXTURE_TREE, "--overlay", overlayFile, "--json"],
          { DATABASE_URL: url },
        );
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        const report = JSON.parse(result.stdout) as ImportReport;
        expect(report.kinds.vaults.imported).toBe(159);
        expect(report.overlay.approved).toBe(approvedCount);
        expect(report.skippedKinds.map((s) => s.entry)).toEqual(["points/", "tokens/"]);

        const database = await openDatabase({ kind: "postgres", url });
        try {
          expect(await readApprovedVaults(database)).toHaveLength(approvedCount);
          expect(await readGeneration(database, "registry")).toBe(1);
        } finally {
          await database.close();
        }
      } finally {
        await drop();
      }
    },
  );
});

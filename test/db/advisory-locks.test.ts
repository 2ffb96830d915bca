// Advisory locks that do not collide: one module lists every key and is the only caller of PostgreSQL's advisory lock
// functions; a registry import completes while a server's indexer holds its lock; a command waiting for a lock says
// what it waits for and gives up after DB_LOCK_TIMEOUT_MS, writing nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADVISORY_LOCKS } from "../../src/db/advisory-locks.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { readGeneration } from "../../src/db/generations.ts";
import { migrate } from "../../src/db/migrate.ts";
import { applyOverlay } from "../../src/registry/importer.ts";
import { readMetadataTree } from "../../src/registry/metadata-tree.ts";
import { overlayToFile } from "../../src/registry/overlay.ts";
import { replaceRegistry } from "../../src/registry/repository.ts";
import { FIXTURE_TREE, fixtureOverlay } from "../registry/support.ts";
import { useTestChain } from "../support/anvil.ts";
import { REPO_ROOT, runSluice } from "../support/cli.ts";
import { ManualClock } from "../support/clock.ts";
import {
  advisoryLockHolders,
  createEmptyPostgresDatabase,
  type EmptyPostgresDatabase,
} from "../support/db.ts";
import { eventually, gate } from "../support/gates.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [path];
  });
}

describe("advisory lock keys", () => {
  it("are listed in one module, which is the only code calling pg_advisory* / pg_try_advisory*", () => {
    const callers = sourceFiles(join(REPO_ROOT, "src"))
      .filter((file) => /pg_(try_)?advisory/i.test(readFileSync(file, "utf8")))
      .map((file) => relative(REPO_ROOT, file));
    expect(callers).toEqual(["src/db/advisory-locks.ts"]);

    const keys = Object.values(ADVISORY_LOCKS).map((lock) => lock.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("advisory locks on postgres", () => {
  const chain = useTestChain();
  let empty: EmptyPostgresDatabase;
  let database: Database;
  let workDir: string;

  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    database = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 8 });
    await migrate(database);
    workDir = mkdtempSync(join(tmpdir(), "sluice-locks-"));
  });

  afterAll(async () => {
    await database?.close();
    await empty?.drop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  async function overlayFile(seed: number): Promise<string> {
    const file = join(workDir, `overlay-${seed}.json`);
    writeFileSync(file, JSON.stringify(overlayToFile(await fixtureOverlay(seed))));
    return file;
  }

  it("re-imports the registry while a server runs its indexer; readers see one whole registry before and after", async () => {
    const read = await readMetadataTree(FIXTURE_TREE);
    await replaceRegistry(database, applyOverlay(read.tree, await fixtureOverlay(1), read.report).registry);
    const clock = new ManualClock(Date.now());
    let server: SwapTestApp | undefined;
    try {
      server = await createSwapTestApp(chain, database, { clock, solvers: [], indexerPollIntervalMs: 50 });
      await server.runtime.start();
      await eventually(
        async () =>
          (await advisoryLockHolders(database)).some(
            (lock) => lock.key === ADVISORY_LOCKS.indexer.key.toString(),
          ),
        "the server's indexer holds its lock",
      );

      const app = server.app;
      const vaults = async () => {
        // Moving the clock makes every request re-check the registry's generation.
        clock.advance(1000);
        const response = await app.inject({ method: "GET", url: "/api/v1/entities/vaults" });
        expect(response.statusCode).toBe(200);
        return response.body;
      };
      const before = await vaults();
      const seen: string[] = [];
      let importing = true;
      const readers = (async () => {
        while (importing) seen.push(await vaults());
      })();
      const imported = await runSluice(
        ["import", "registry", FIXTURE_TREE, "--overlay", await overlayFile(2)],
        {
          DATABASE_URL: empty.url,
        },
      ).finally(() => {
        importing = false;
      });
      await readers;
      expect(imported.stderr).toBe("");
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain("registry imported");

      const after = await vaults();
      expect(after).not.toBe(before);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((body) => body !== before && body !== after)).toEqual([]);
      // The indexer kept its lock through the import.
      expect(server.runtime.indexer.epoch).toBeDefined();
    } finally {
      await server?.close();
    }
  });

  it("a command waiting for a lock says what it waits for, then gives up after DB_LOCK_TIMEOUT_MS and writes nothing", async () => {
    const generation = await readGeneration(database, "registry");
    const held = gate();
    const holding = gate();
    // Another import in progress: a transaction holding the registry import lock until the test lets it go.
    const holder = database.db.transaction(async (tx) => {
      await database.lockTransaction(tx, ADVISORY_LOCKS.registryImport);
      holding.open();
      await held.opened;
    });
    await holding.opened;
    try {
      const refused = await runSluice(
        ["import", "registry", FIXTURE_TREE, "--overlay", await overlayFile(3)],
        {
          DATABASE_URL: empty.url,
          DB_LOCK_TIMEOUT_MS: "800",
          LOG_LEVEL: "warn",
        },
      );
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain("waiting for the registry import lock, held by PostgreSQL backend");
      expect(refused.stderr).toContain("sluice: gave up waiting for the registry import lock after 800 ms");
      expect(refused.stderr).toContain("DB_LOCK_TIMEOUT_MS");
    } finally {
      held.open();
      await holder;
    }
    expect(await readGeneration(database, "registry")).toBe(generation);
  });
});

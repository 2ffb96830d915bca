// A data directory PGlite cannot open stops the command or the start with a message naming the directory, and is
// left as it is: never initialised again over, never replaced by the template. The real binary, on a real database
// damaged two ways.
import { copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { runSluice } from "../support/cli.ts";
import { embeddedPointsTypes } from "../support/db.ts";
import { filesUnder } from "../support/files.ts";

describe("an embedded data directory PGlite cannot open", () => {
  let workDir: string;
  let dataDir: string;
  let databaseDir: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-damaged-"));
    dataDir = join(workDir, "data");
    databaseDir = join(dataDir, "db");
    const database = await openDatabase({ kind: "pglite", dataDir: databaseDir });
    await database.query("insert into points_types (name, decimals) values ('kept', 18)");
    await database.close();
  });

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("without PG_VERSION: refused and untouched, where PGlite would initialise a new database over it", async () => {
    const versionFile = join(databaseDir, "PG_VERSION");
    renameSync(versionFile, join(workDir, "PG_VERSION"));
    const before = filesUnder(dataDir);

    const migrate = await runSluice(["migrate"], { DATA_DIR: dataDir });
    expect({ code: migrate.code, stdout: migrate.stdout }).toEqual({ code: 1, stdout: "" });
    expect(migrate.stderr).toBe(
      `sluice: cannot open the embedded database in ${databaseDir}: it holds files but no database (no ` +
        "PG_VERSION), and PGlite would initialise a new one over them. The directory was left as it is: restore " +
        "it from a backup, or move it away to start with a new, empty database\n",
    );
    expect(filesUnder(dataDir)).toEqual(before);

    renameSync(join(workDir, "PG_VERSION"), versionFile);
    expect(await embeddedPointsTypes(databaseDir)).toEqual(["kept"]);
  });

  it("with a damaged control file: the server does not start, and says which directory", async () => {
    const controlFile = join(databaseDir, "global", "pg_control");
    copyFileSync(controlFile, join(workDir, "pg_control"));
    writeFileSync(controlFile, "not a control file");

    const serve = await runSluice(["serve"], {
      DATA_DIR: dataDir,
      PORT: "0",
      INTERNAL_PORT: "0",
      HOST: "127.0.0.1",
      SLUICE_DEMO_DATA: "0",
      DEPLOYMENT: undefined,
      DEPLOYMENT_FILE: undefined,
    });
    expect(serve.stderr).toContain(
      `sluice: cannot open the embedded database in ${databaseDir}: PGlite could not start on it (`,
    );
    expect(serve.stderr).toContain("The directory was left as it is");
    expect(serve.code).toBe(1);

    copyFileSync(join(workDir, "pg_control"), controlFile);
    expect(await embeddedPointsTypes(databaseDir)).toEqual(["kept"]);
  }, 120_000);
});

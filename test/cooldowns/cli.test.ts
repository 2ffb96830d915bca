// `sluice solvers cooldown --lift | --set` end to end: the real binary against PGlite in a data directory (and
// PostgreSQL when TEST_DATABASE_URL is set), the stored state and history it leaves, its refusals, and the data
// directory's lock message while another process holds the embedded database.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseKind, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase, databaseKinds } from "../support/db.ts";
import { placeholderDeployment } from "../support/server.ts";

const ALPHA = {
  id: "ext_alpha",
  name: "Alpha",
  endpoint: "http://127.0.0.1:9/",
  filler: `0x${"2".padStart(40, "0")}`,
  internal: false,
  sharedSecretEnv: "ALPHA_SECRET",
};

/** A deployment file naming ext_alpha as its one solver, as the devnet writes its own (a parsed Deployment). */
function writeDeploymentFile(path: string, name = "ours"): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...placeholderDeployment({ solvers: [ALPHA] }), name }));
  return path;
}

interface CliTarget {
  env: Record<string, string | undefined>;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

async function cliTarget(kind: DatabaseKind, workDir: string): Promise<CliTarget> {
  const noDeployment = {
    DEPLOYMENT: undefined,
    DEPLOYMENT_FILE: writeDeploymentFile(join(workDir, "deployment.json")),
  };
  if (kind === "pglite") {
    const dataDir = join(workDir, "data");
    return {
      env: { ...noDeployment, DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") }),
      dispose: async () => {},
    };
  }
  const { url, drop } = await createEmptyPostgresDatabase();
  return {
    env: { ...noDeployment, DATABASE_URL: url },
    open: async () => openDatabase({ kind: "postgres", url, poolSize: 1 }),
    dispose: drop,
  };
}

describe.each(databaseKinds)("sluice solvers cooldown (%s)", (kind) => {
  let workDir: string;
  let target: CliTarget;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-cooldown-cli-"));
    target = await cliTarget(kind, workDir);
  });
  afterAll(async () => {
    await target?.dispose();
    rmSync(workDir, { recursive: true, force: true });
  });

  const stored = async () => {
    const database = await target.open();
    try {
      const state = await database.query<{ solver_id: string; until: string | null; repeats: number }>(
        "select solver_id, cooldown_until::text as until, repeats from solver_cooldowns order by solver_id",
      );
      const events = await database.query<{ kind: string; reason: string }>(
        "select kind, reason from solver_cooldown_events order by id",
      );
      return { state, events };
    } finally {
      await database.close();
    }
  };

  it("sets a cooldown until a time, then lifts it and resets the doubling", async () => {
    const set = await runSluice(
      ["solvers", "cooldown", "--set", "ext_alpha", "--until", "2099-01-02T03:04:05Z"],
      target.env,
    );
    expect(set).toMatchObject({ code: 0, stdout: "ext_alpha: in cooldown until 2099-01-02T03:04:05.000Z\n" });
    const afterSet = await stored();
    expect(afterSet.state).toEqual([
      { solver_id: "ext_alpha", until: expect.stringMatching(/^2099-01-02 03:04:05\+00/), repeats: 0 },
    ]);
    expect(afterSet.events).toEqual([{ kind: "start", reason: "set by the operator" }]);

    const lift = await runSluice(["solvers", "cooldown", "--lift", "ext_alpha"], target.env);
    expect(lift).toMatchObject({ code: 0, stdout: "ext_alpha: no cooldown; its doubling starts over\n" });
    const afterLift = await stored();
    expect(afterLift.state).toEqual([{ solver_id: "ext_alpha", until: null, repeats: 0 }]);
    expect(afterLift.events.map((event) => event.reason)).toEqual([
      "set by the operator",
      "lifted by the operator",
    ]);
  });
});

describe("sluice solvers cooldown's checks, before any database is opened", () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-cooldown-checks-"));
  });
  afterAll(() => {
    rmSync(workDir, { recursive: true, force: true });
  });

  it("refuses what it cannot do, naming why, and touches no database", async () => {
    const env = { DATA_DIR: join(workDir, "untouched"), DEPLOYMENT: undefined, DEPLOYMENT_FILE: undefined };
    const refused = await Promise.all([
      runSluice(["solvers", "cooldown", "--set", "ext_alpha"], env),
      runSluice(["solvers", "cooldown", "--set", "ext_alpha", "--until", "2020-01-01T00:00:00Z"], env),
      runSluice(["solvers", "cooldown", "--set", "ext_alpha", "--until", "tomorrow"], env),
      runSluice(["solvers", "cooldown", "--lift", "Not An Id"], env),
      runSluice(["solvers", "cooldown"], env),
      runSluice(["solvers", "cooldown", "--lift", "ext_alpha", "--set", "ext_beta"], env),
    ]);
    expect(refused.map((run) => run.code)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(refused[0]!.stderr).toContain("--set needs --until <ISO-8601>");
    expect(refused[1]!.stderr).toContain("is not in the future");
    expect(refused[2]!.stderr).toContain("must be an ISO-8601 time with a zone");
    expect(refused[3]!.stderr).toContain("Not An Id is not a solver id");
    expect(refused[4]!.stderr).toContain("give --lift <id> or --set <id> --until <ISO-8601>");
    expect(refused[5]!.stderr).toContain("give either --lift <id> or --set <id>, not both");
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });

  it("checks the id against the deployment when one is named", async () => {
    const file = writeDeploymentFile(join(workDir, "deployment.json"));
    const env = { DATA_DIR: join(workDir, "data"), DEPLOYMENT: undefined, DEPLOYMENT_FILE: file };
    const unknown = await runSluice(["solvers", "cooldown", "--lift", "ext_nobody"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "ext_nobody is not a solver of deployment ours (its solvers: ext_alpha)",
    );
    const known = await runSluice(["solvers", "cooldown", "--lift", "ext_alpha"], env);
    expect(known).toMatchObject({ code: 0, stdout: "ext_alpha: no cooldown; its doubling starts over\n" });
  });

  it("checks the id against the devnet's deployment in DATA_DIR when none is named, and refuses with neither", async () => {
    const dataDir = join(workDir, "devnet-data");
    const env = { DATA_DIR: dataDir, DEPLOYMENT: undefined, DEPLOYMENT_FILE: undefined };
    const nothing = await runSluice(
      ["solvers", "cooldown", "--set", "ext_alpha", "--until", "2099-01-01T00:00:00Z"],
      env,
    );
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("no deployment to check ext_alpha against");
    expect(existsSync(join(dataDir, "db"))).toBe(false);

    writeDeploymentFile(join(dataDir, "devnet", "deployment.json"), "devnet");
    const unknown = await runSluice(
      ["solvers", "cooldown", "--set", "sluice_gamma", "--until", "2099-01-01T00:00:00Z"],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "sluice_gamma is not a solver of deployment devnet (its solvers: ext_alpha)",
    );
    expect(existsSync(join(dataDir, "db"))).toBe(false);
    const known = await runSluice(["solvers", "cooldown", "--lift", "ext_alpha"], env);
    expect(known).toMatchObject({ code: 0, stdout: "ext_alpha: no cooldown; its doubling starts over\n" });
  });
});

describe("sluice solvers cooldown beside a process holding the embedded database", () => {
  it("fails with the data directory's lock message and changes nothing when no server answers there", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "sluice-cooldown-lock-"));
    const dataDir = join(workDir, "data");
    // This process holds the embedded database, as a running `sluice serve` does.
    const holder = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "db") });
    await migrate(holder);
    try {
      const refused = await runSluice(["solvers", "cooldown", "--lift", "ext_alpha"], {
        DATA_DIR: dataDir,
        DEPLOYMENT: undefined,
        DEPLOYMENT_FILE: writeDeploymentFile(join(workDir, "deployment.json")),
      });
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: "" });
      expect(refused.stderr).toContain(
        `the embedded database in ${join(dataDir, "db")} is in use by process ${process.pid}`,
      );
      expect(await holder.query("select solver_id from solver_cooldowns")).toEqual([]);
    } finally {
      await holder.close();
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});

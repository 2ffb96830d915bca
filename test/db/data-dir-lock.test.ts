// One process per embedded data directory, with the real binary. While a `sluice` process holds a data directory,
// every other command on it is refused (holder's PID named, exit 1, nothing written) and the holder's work lands
// whole; a lock left by a killed process, or naming a PID that now belongs to a process started at another time, is
// taken over; of processes racing for one stale lock exactly one wins.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { DataDirLockedError, dataDirLockFile } from "../../src/db/data-dir-lock.ts";
import { currentProcessIdentity } from "../../src/process/identity.ts";
import { FIXTURE_TREE } from "../registry/support.ts";
import { REPO_ROOT, runSluice, type SluiceProcess, startSluice } from "../support/cli.ts";
import { embeddedPointsTypes } from "../support/db.ts";
import { filesUnder } from "../support/files.ts";

const RECEIVER = "0x1111111111111111111111111111111111111111";
const VAULT = "0x2222222222222222222222222222222222222222";
const POINTS_ROW = { receiver_address: RECEIVER, receiver_type: "staker", vault_address: VAULT, points: "5" };

/**
 * A partner points API whose `/<name>/last_block` answers only when the test says: a `sluice points sync` against it
 * holds its data directory open (opened, migrated) for as long as the test wants.
 */
class GatedPartnerApi {
  readonly #waiting = new Map<string, ServerResponse>();
  readonly #arrivals = new Map<string, () => void>();
  readonly #server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    const [, name, rest] = request.url?.match(/^\/([^/]+)(\/.*)$/) ?? [];
    if (name && rest === "/last_block") {
      this.#waiting.set(name, response);
      this.#arrivals.get(name)?.();
      return;
    }
    if (rest === "/api/all?block_number=300&page=1") {
      response.end(JSON.stringify({ data: [{ ...POINTS_ROW, block_number: 300 }], next_page: null }));
      return;
    }
    response.statusCode = 404;
    response.end("{}");
  });
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Resolves once the sync called `name` asks for the last block, i.e. holds its database open and migrated. */
  arrival(name: string): Promise<void> {
    return new Promise((resolve) => this.#arrivals.set(name, resolve));
  }

  answer(name: string): void {
    this.#waiting.get(name)?.end('{"last_block": 300}');
  }

  async stop(): Promise<void> {
    for (const response of this.#waiting.values()) response.destroy();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

describe("one process per embedded data directory", () => {
  const partner = new GatedPartnerApi();
  const started: Array<SluiceProcess | ChildProcess> = [];
  let workDir: string;
  let pointsFile: string;
  let overlayFile: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "sluice-lock-"));
    pointsFile = join(workDir, "points.jsonl");
    writeFileSync(pointsFile, `${JSON.stringify(POINTS_ROW)}\n`);
    overlayFile = join(workDir, "overlay.json");
    writeFileSync(overlayFile, '{"vaults": {}}');
    await partner.start();
  });

  afterAll(async () => {
    for (const running of started) {
      const child = "child" in running ? running.child : running;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    await partner.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  /** `sluice points sync` of the points type `name`, holding `dataDir` until the test answers it. */
  async function startHolder(dataDir: string, name: string): Promise<SluiceProcess> {
    const arrived = partner.arrival(name);
    const holder = startSluice(
      [
        "points",
        "sync",
        `${partner.url}/${name}`,
        "--type",
        name,
        "--feed-format",
        "legacy",
        "--feed-decimals",
        "0",
      ],
      {
        DATA_DIR: dataDir,
      },
    );
    started.push(holder);
    await Promise.race([
      arrived,
      holder.exited.then((run) => {
        throw new Error(`the holder exited (${run.code}): ${run.stderr}`);
      }),
    ]);
    return holder;
  }

  const importPoints = (dataDir: string, type: string) =>
    runSluice(
      [
        "import",
        "points",
        pointsFile,
        "--type",
        type,
        "--block",
        "1",
        "--feed-decimals",
        "0",
        "--type-decimals",
        "0",
      ],
      {
        DATA_DIR: dataDir,
      },
    );

  it("refuses every other command while a sluice process holds the directory; the holder's work lands", async () => {
    const dataDir = join(workDir, "held");
    const holder = await startHolder(dataDir, "held");
    const before = filesUnder(dataDir);

    const refusals = await Promise.all([
      importPoints(dataDir, "refused"),
      runSluice(["import", "registry", FIXTURE_TREE, "--overlay", overlayFile], { DATA_DIR: dataDir }),
      runSluice(["points", "sync", `${partner.url}/other`, "--type", "other", "--feed-decimals", "0"], {
        DATA_DIR: dataDir,
      }),
      runSluice(["migrate"], { DATA_DIR: dataDir }),
    ]);
    for (const refused of refusals) {
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: "" });
      expect(refused.stderr).toContain(
        `the embedded database in ${join(dataDir, "db")} is in use by process`,
      );
      expect(refused.stderr).toContain(`process ${holder.child.pid} (sluice.mjs points sync`);
      expect(refused.stderr).toContain("Stop that process first");
      expect(refused.stderr).toContain("use PostgreSQL (DATABASE_URL)");
    }
    // A second server is refused before it starts anything: no anvil, no devnet files.
    const serve = await runSluice(["serve"], {
      DATA_DIR: dataDir,
      PORT: "0",
      INTERNAL_PORT: "0",
      HOST: "127.0.0.1",
      SLUICE_DEMO_DATA: "0",
      DEPLOYMENT: undefined,
      DEPLOYMENT_FILE: undefined,
    });
    expect(serve.stderr).toContain(`is in use by process ${holder.child.pid}`);
    expect(serve.code).toBe(1);
    expect(filesUnder(dataDir)).toEqual(before);

    partner.answer("held");
    const held = await holder.exited;
    expect(held.stdout).toBe(
      "synced held@300: 1 rows, 1 receiver rows in 1 vaults, total 5000000000000000000 (18 decimals)\n",
    );
    expect(held.code).toBe(0);
    expect(existsSync(dataDirLockFile(join(dataDir, "db")))).toBe(false);
    expect(await embeddedPointsTypes(join(dataDir, "db"))).toEqual(["held"]);
  }, 120_000);

  it("takes over the lock of a killed process, and of a PID now used by a process started at another time", async () => {
    const dataDir = join(workDir, "stale");
    const lockFile = dataDirLockFile(join(dataDir, "db"));
    const holder = await startHolder(dataDir, "killed");
    holder.child.kill("SIGKILL");
    await holder.exited;
    const stale = JSON.parse(readFileSync(lockFile, "utf8")) as Record<string, unknown>;
    expect(stale).toMatchObject({ pid: holder.child.pid, startTime: expect.stringMatching(/^\d+$/) });

    // A live PID (this test's process) with the killed holder's start time: the PID was reused, the lock is stale.
    // (The same PID with its real start time is a held lock: the last test.)
    writeFileSync(lockFile, JSON.stringify({ ...stale, pid: process.pid }));
    const reused = await importPoints(dataDir, "reused");
    expect(reused.stderr).toBe("");
    expect(reused.stdout).toContain("imported points snapshot reused@1");
    expect(reused.code).toBe(0);

    // The killed holder's own lock: no process has that PID any more.
    writeFileSync(lockFile, JSON.stringify(stale));
    const dead = await importPoints(dataDir, "dead");
    expect(dead.stdout).toContain("imported points snapshot dead@1");
    expect(dead.code).toBe(0);

    expect(readdirSync(dataDir)).toEqual(["db"]);
    expect(await embeddedPointsTypes(join(dataDir, "db"))).toEqual(["dead", "reused"]);
  }, 120_000);

  it("gives a stale lock to exactly one of the processes racing for it", async () => {
    const dataDir = join(workDir, "raced", "db");
    const killed = startRacer(dataDir);
    expect(await killed.line).toBe("won");
    killed.child.kill("SIGKILL");
    await once(killed.child, "exit");

    const barrier = join(workDir, "barrier");
    const racers = [1, 2, 3].map(() => startRacer(dataDir, ["--barrier", barrier, "--racers", "3"]));
    const lines = await Promise.all(racers.map((racer) => racer.line));
    const winners = racers.filter((_, i) => lines[i] === "won");
    expect(winners).toHaveLength(1);
    for (const line of lines.filter((line) => line !== "won"))
      expect(line).toContain(`is in use by process ${winners[0]!.child.pid}`);
    for (const racer of racers) {
      racer.child.stdin!.end();
      await once(racer.child, "exit");
    }
    expect(existsSync(dataDirLockFile(dataDir))).toBe(false);
    expect(readdirSync(join(workDir, "raced"))).toEqual([]);
  }, 60_000);

  function startRacer(dataDir: string, args: string[] = []): { child: ChildProcess; line: Promise<string> } {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/db/lock-racer.ts", "--data-dir", dataDir, ...args],
      { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "inherit"] },
    );
    started.push(child);
    const lines = createInterface({ input: child.stdout! });
    const line = new Promise<string>((resolve, reject) => {
      lines.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the racer exited (${code}) before it said anything`)));
    });
    return { child, line };
  }

  it("refuses a second open in the same process, and a lock held on another host, naming the lock file", async () => {
    const dataDir = join(workDir, "in-process", "db");
    const first = await openDatabase({ kind: "pglite", dataDir });
    try {
      const second = openDatabase({ kind: "pglite", dataDir });
      await expect(second).rejects.toThrow(DataDirLockedError);
      await expect(second).rejects.toThrow(`is in use by process ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(dataDirLockFile(dataDir))).toBe(false);

    const elsewhere = { ...currentProcessIdentity(), host: "elsewhere.example", token: "0", command: "x" };
    writeFileSync(
      dataDirLockFile(dataDir),
      JSON.stringify({ ...elsewhere, acquiredAt: "2026-01-01T00:00:00Z" }),
    );
    await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toThrow(
      `on host elsewhere.example, which this host cannot check: if that process is gone, delete ${dataDirLockFile(dataDir)}`,
    );
  });
});

// kill -9 of a process running the points engine, at random moments of its backfill and of its live steps, then a
// restart, again and again: the published state ends equal to an uninterrupted run's (nothing counted twice, nothing
// lost). Both databases. The moments come from a seed printed on failure.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { createEmptyPostgresDatabase, createTestDatabase, databaseKinds } from "../support/db.ts";
import { ScriptedPointsChain } from "../support/points-chain.ts";
import { followerOn, followToHead, publishedState } from "./engine-state.ts";

const REPO_ROOT = new URL("../..", import.meta.url).pathname;
const BLOCKS = 220;
const BACKLOG = 120;
const MS_PER_BLOCK = 150;
const KILLS = 5;
const workDir = mkdtempSync(join(tmpdir(), "sluice-engine-kill-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function startChild(
  db: string,
  seed: number,
  t0: number,
): { child: ChildProcess; said: (line: string) => Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "test/points-engine/engine-child.ts",
      ...["--db", db, "--seed", String(seed), "--blocks", String(BLOCKS), "--backlog", String(BACKLOG)],
      ...["--t0", String(t0), "--ms-per-block", String(MS_PER_BLOCK)],
    ],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const seen: string[] = [];
  const waiting = new Map<string, () => void>();
  lines.on("line", (line) => {
    seen.push(line);
    waiting.get(line)?.();
  });
  return {
    child,
    said: (line) =>
      new Promise<void>((resolve, reject) => {
        if (seen.includes(line)) return resolve();
        waiting.set(line, resolve);
        child.once("exit", (code, signal) =>
          seen.includes(line)
            ? resolve()
            : reject(new Error(`child exited (${code ?? signal}) before "${line}"`)),
        );
      }),
  };
}

/** The stored position, read between two children (none holds the database then). */
async function storedPosition(db: string): Promise<string> {
  const database = db.startsWith("postgres")
    ? await openDatabase({ kind: "postgres", url: db })
    : await openDatabase({ kind: "pglite", dataDir: db });
  try {
    const rows = await database.query<{ block: string }>(
      "select block_number::text as block from points_engine_position",
    );
    return rows[0]?.block ?? "none";
  } finally {
    await database.close();
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );

describe.each(databaseKinds)("points engine under kill -9 (%s)", (kind) => {
  it("ends equal to an uninterrupted run after kills during backfill and live steps", async () => {
    const seed = Number(process.env.SLUICE_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = mulberry32(seed);
    const chainSeed = 17;
    const postgres = kind === "postgres" ? await createEmptyPostgresDatabase() : undefined;
    const db = postgres?.url ?? join(workDir, `db-${seed}`);
    try {
      const t0 = Date.now();
      let kills = 0;
      // The first kill lands in the backlog's computation, the later ones while it follows the growing head.
      const positions: string[] = [];
      while (kills < KILLS) {
        const { child, said } = startChild(db, chainSeed, t0);
        await said("started").catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 100 + random() * 1_500));
        child.kill("SIGKILL");
        await exited(child);
        kills++;
        positions.push(await storedPosition(db));
      }
      // Killed with a backlog left and while following: some kill found it behind the head it could reach.
      expect(positions.length).toBe(KILLS);
      const last = startChild(db, chainSeed, t0);
      await last.said("done");
      await exited(last.child);

      const killed = postgres
        ? await openDatabase({ kind: "postgres", url: postgres.url })
        : await openDatabase({ kind: "pglite", dataDir: db });
      const reference = await createTestDatabase(kind);
      try {
        await followToHead(reference, followerOn(reference, ScriptedPointsChain.generate(chainSeed, BLOCKS)));
        const expected = await publishedState(reference);
        expect(expected.position!.block).toBe(BigInt(BLOCKS));
        expect(
          await publishedState(killed),
          `seed ${seed} (SLUICE_KILL_SEED replays it), positions at the kills ${positions}`,
        ).toEqual(expected);
      } finally {
        await killed.close();
        await reference.close();
      }
    } finally {
      await postgres?.drop();
    }
  }, 300_000);
});

// `sluice points engine backfill`, `status` and `sluice points verify` as an operator runs them: the real binary, a
// deployment file with a pointsEngine section, the Symbiotic-style contracts and their activity on anvil.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { parseDeployment } from "../../src/deployment/load.ts";
import { finalityDepthOf } from "../../src/deployment/schema.ts";
import { startPointsActivity } from "../../src/devnet/points-activity.ts";
import { devnetPointsEngineSection } from "../../src/devnet/points-config.ts";
import { deployPointsContracts } from "../../src/devnet/points-deploy.ts";
import { pointsPlan } from "../../src/devnet/points-plan.ts";
import { silentLogger } from "../../src/logger.ts";
import { buildPointsEngine } from "../../src/points-engine/build.ts";
import { backfill } from "../../src/points-engine/engine.ts";
import { PointsEngineLease, readLeaseHolder } from "../../src/points-engine/lease.ts";
import { useTestChain } from "../support/anvil.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase, databaseKinds } from "../support/db.ts";
import { placeholderDeployment } from "../support/server.ts";

const chain = useTestChain();
const workDir = mkdtempSync(join(tmpdir(), "sluice-engine-cli-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The Symbiotic-style contracts, their whole scripted activity mined, and a deployment file naming them. */
async function deployedEngine(name: string) {
  const plan = pointsPlan();
  const deployed = await deployPointsContracts({
    publicClient: chain.publicClient,
    rpcUrl: chain.rpcUrl,
    plan,
  });
  await startPointsActivity({
    publicClient: chain.publicClient,
    rpcUrl: chain.rpcUrl,
    plan,
    logger: silentLogger(),
    stepIntervalMs: 0,
  }).done;
  await chain.increaseTime(60);
  const head = await chain.publicClient.getBlockNumber();
  const base = { ...placeholderDeployment({ chainId: chain.chainId }) };
  const file = join(workDir, `deployment-${name}.json`);
  const pointsEngine = devnetPointsEngineSection(plan, deployed);
  writeFileSync(file, JSON.stringify({ ...base, pointsEngine }));
  return { base, file, head, pointsEngine };
}

describe.each(databaseKinds)("points engine commands (%s)", { timeout: 300_000 }, (kind) => {
  it("backfills with a final line, reports the position, verifies a block, and names a missing section", async () => {
    const { base, file, head } = await deployedEngine(kind);
    const postgres = kind === "postgres" ? await createEmptyPostgresDatabase() : undefined;
    const env = {
      DEPLOYMENT_FILE: file,
      RPC_URLS: chain.rpcUrl,
      DATA_DIR: join(workDir, `data-${kind}`),
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
    try {
      const filled = await runSluice(["points", "engine", "backfill"], env);
      expect(filled.stderr).toBe("");
      expect(filled.code).toBe(0);
      expect(filled.stdout).toMatch(
        new RegExp(`^points engine at block ${head}: \\d+ blocks, \\d+ stake events\\n$`),
      );

      const status = await runSluice(["points", "engine", "status"], env);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`position: block ${head} (0x`);
      expect(status.stdout).toContain(`lag 0 blocks behind block ${head}`);
      expect(status.stdout).toMatch(/last snapshot: block \d+, total \d+/);

      const verified = await runSluice(["points", "verify", "--block", String(head)], env);
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain("ok: the engine's points agree with the replay");

      const without = join(workDir, `without-${kind}.json`);
      writeFileSync(without, JSON.stringify(base));
      const refused = await runSluice(["points", "engine", "status"], { ...env, DEPLOYMENT_FILE: without });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("has no pointsEngine section");
    } finally {
      await postgres?.drop();
    }
  });
});

// A server on PostgreSQL runs the engine and holds its lease: `backfill` beside it follows that engine to the head
// (it computes already), and takes over should it stop first. (On the embedded database the command goes through the
// running server instead: test/admin/beside-server.test.ts.)
describe.each(databaseKinds.filter((kind) => kind === "postgres"))(
  "points engine backfill beside a running engine (%s)",
  { timeout: 300_000 },
  () => {
    it("follows the running engine to the head, then takes over from one that stopped", async () => {
      const { file, head, pointsEngine } = await deployedEngine("beside");
      const postgres = await createEmptyPostgresDatabase();
      const database = await openDatabase({ kind: "postgres", url: postgres.url });
      const env = { DEPLOYMENT_FILE: file, RPC_URLS: chain.rpcUrl, DATABASE_URL: postgres.url };
      try {
        await migrate(database);
        const deployment = parseDeployment(
          { ...placeholderDeployment({ chainId: chain.chainId }), pointsEngine },
          file,
        );
        const parts = buildPointsEngine({
          config: deployment.pointsEngine!,
          confirmationDepth: deployment.confirmationDepth,
          finalityDepth: finalityDepthOf(deployment),
          client: chain.publicClient,
          database,
          clock: systemClock,
          logger: silentLogger(),
          pollIntervalMs: 200,
        });
        // The "server": its engine holds the lease and computes, a few blocks a step so it takes a while.
        parts.engine.start();
        await until(async () => (await readLeaseHolder(database)) !== undefined, "the engine's lease");
        const followed = await runSluice(["points", "engine", "backfill"], env);
        expect(followed.stderr).toBe("");
        expect(followed.code).toBe(0);
        expect(followed.stdout).toMatch(
          new RegExp(
            `^points engine at block ${head}: 0 blocks, 0 stake events; \\d+ blocks computed meanwhile by the ` +
              "running engine \\([^)]+\\)\\n$",
          ),
        );

        // The engine stops while a backfill follows it: the backfill takes the lease and computes the rest itself.
        // (In this process, so the stand-in stops once the backfill is seen following.)
        await parts.engine.stop();
        const holder = await PointsEngineLease.acquire(database, "a stand-in that stops");
        expect(holder).not.toBeNull();
        await chain.mine(5);
        let released = false;
        const tookOver = await backfill({
          database,
          follower: parts.follower,
          followRunningEngine: { pollMs: 50 },
          // It follows (its first report), then the stand-in stops.
          onProgress: () => {
            if (released) return;
            released = true;
            void holder!.release();
          },
        });
        expect(tookOver).toMatchObject({
          position: head + 5n,
          blocks: 5,
          events: 0,
          followed: { holder: "a stand-in that stops", blocks: 0 },
        });
      } finally {
        await database.close();
        await postgres.drop();
      }
    });
  },
);

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

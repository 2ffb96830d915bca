// `sluice points engine backfill`, `status` and `sluice points verify` as an operator runs them: the real binary, a
// deployment file with a pointsEngine section, the Symbiotic-style contracts and their activity on anvil.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startPointsActivity } from "../../src/devnet/points-activity.ts";
import { devnetPointsEngineSection } from "../../src/devnet/points-config.ts";
import { deployPointsContracts } from "../../src/devnet/points-deploy.ts";
import { pointsPlan } from "../../src/devnet/points-plan.ts";
import { silentLogger } from "../../src/logger.ts";
import { useTestChain } from "../support/anvil.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase, databaseKinds } from "../support/db.ts";
import { placeholderDeployment } from "../support/server.ts";

const chain = useTestChain();
const workDir = mkdtempSync(join(tmpdir(), "sluice-engine-cli-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe.each(databaseKinds)("points engine commands (%s)", { timeout: 300_000 }, (kind) => {
  it("backfills with a final line, reports the position, verifies a block, and names a missing section", async () => {
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
    const file = join(workDir, `deployment-${kind}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        ...base,
        pointsEngine: {
          ...devnetPointsEngineSection(plan, deployed),
        },
      }),
    );
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

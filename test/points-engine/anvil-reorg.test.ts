// A reorg on anvil that removes the devnet's scripted staking activity (its deposits among it), with the Symbiotic-
// style contracts, the chain reader and the engine as they run: the engine rewinds, and ends equal to an engine that
// never saw the removed blocks. Both databases.
import { describe, expect, it } from "vitest";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";
import { startPointsActivity } from "../../src/devnet/points-activity.ts";
import { devnetPointsEngineSection } from "../../src/devnet/points-config.ts";
import { deployPointsContracts } from "../../src/devnet/points-deploy.ts";
import { pointsPlan } from "../../src/devnet/points-plan.ts";
import { silentLogger } from "../../src/logger.ts";
import { buildPointsEngine } from "../../src/points-engine/build.ts";
import { PointsEngineLease } from "../../src/points-engine/lease.ts";
import { verifyPointsAt } from "../../src/points-engine/verify.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { publishedState } from "./engine-state.ts";

const chain = useTestChain();

describe.each(databaseKinds)("points engine on anvil (%s)", { timeout: 300_000 }, (kind) => {
  it("rewinds a reorg that removes deposits: equal to a run that never saw them", async () => {
    const plan = pointsPlan();
    const deployed = await deployPointsContracts({
      publicClient: chain.publicClient,
      rpcUrl: chain.rpcUrl,
      plan,
    });
    // Points from the block the deployment is complete in; its transactions build the state.
    const config = PointsEngineConfigSchema.parse({
      ...devnetPointsEngineSection(plan, deployed),
      snapshotEveryBlocks: 5,
    });
    const engineOn = async () => {
      const database = await createTestDatabase(kind);
      const parts = buildPointsEngine({
        config,
        confirmationDepth: 0,
        finalityDepth: 64,
        client: chain.publicClient,
        database,
        clock: new ManualClock(),
        logger: silentLogger(),
      });
      const follow = async () => {
        const lease = (await PointsEngineLease.acquire(database))!;
        try {
          for (;;) {
            const step = await parts.follower.step(lease);
            if (step.rewoundTo === undefined && step.blocks === 0) return;
          }
        } finally {
          await lease.release();
        }
      };
      return { database, follow };
    };

    await chain.mine(2);
    const reorged = await engineOn();
    await reorged.follow();
    const before = await chain.publicClient.getBlockNumber();
    const activity = startPointsActivity({
      publicClient: chain.publicClient,
      rpcUrl: chain.rpcUrl,
      plan,
      logger: silentLogger(),
      stepIntervalMs: 0,
    });
    await activity.done;
    expect(activity.played.filter((step) => step.step.includes("deposit") && step.ok).length).toBeGreaterThan(
      0,
    );
    await chain.mine(1);
    await reorged.follow();
    const withActivity = await publishedState(reorged.database);
    const depth = Number((await chain.publicClient.getBlockNumber()) - before);

    // Every block of the activity replaced by an empty one, then a few more.
    await chain.testClient.request({ method: "anvil_reorg" as never, params: [depth, []] as never });
    // Time passes on the chain without the activity: the deployment's stake earns.
    await chain.increaseTime(600);
    await chain.mine(2);
    await reorged.follow();
    const clean = await engineOn();
    await clean.follow();
    const state = await publishedState(reorged.database);
    expect(state).toEqual(await publishedState(clean.database));
    expect(state.position!.block).toBe(await chain.publicClient.getBlockNumber());
    expect(state.records).not.toEqual(withActivity.records.filter((r) => !r.startsWith("position")));
    expect(state.position!.emitted).toBeGreaterThan(0n);
    expect(state.position!.emitted).not.toBe(withActivity.position!.emitted);
    await reorged.database.close();
    await clean.database.close();
  });
});

// `sluice points verify` reads no database: one run.
describe("points verify on anvil", { timeout: 300_000 }, () => {
  it("verifies: the replay of every block agrees with the engine's path within the bound", async () => {
    const plan = pointsPlan();
    const deployed = await deployPointsContracts({
      publicClient: chain.publicClient,
      rpcUrl: chain.rpcUrl,
      plan,
    });
    const config = PointsEngineConfigSchema.parse({
      ...devnetPointsEngineSection(plan, deployed),
    });
    await chain.increaseTime(30);
    const activity = startPointsActivity({
      publicClient: chain.publicClient,
      rpcUrl: chain.rpcUrl,
      plan,
      logger: silentLogger(),
      stepIntervalMs: 0,
    });
    await activity.done;
    await chain.increaseTime(90);
    const block = await chain.publicClient.getBlockNumber();
    const comparison = await verifyPointsAt({ client: chain.publicClient, config, block });
    expect(comparison.problems).toEqual([]);
    expect(comparison.totals).toEqual([]);
    expect(comparison.receivers.filter((r) => !r.withinBound)).toEqual([]);
    expect(comparison.ok).toBe(true);
    expect(comparison.emitted.ledger).toBeGreaterThan(0n);
    expect(comparison.blocks).toBe(block - config.startBlock + 1n);
  });
});

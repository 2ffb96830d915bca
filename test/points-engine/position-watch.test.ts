// The own points' serving side learns of each committed step from its notification instead of reading the engine's
// position at every request: many answers in a row read it at most once, and a step committed by another process
// (here: another lease) reaches the answers without any request asking for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { silentLogger } from "../../src/logger.ts";
import { EnginePositionWatch } from "../../src/points-engine/position-watch.ts";
import { OwnPoints } from "../../src/points-engine/serving.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { ScriptedPointsChain, scopedLedgers, VAULTS } from "../support/points-chain.ts";
import { followerOn, followToHead } from "./engine-state.ts";

/** `database`, counting the reads of the engine's position (the statement named points_engine_position). */
function countingPositionReads(database: Database): { database: Database; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(database, {
    get(target, property, receiver) {
      if (property === "query")
        return (text: string, values?: unknown[], options?: { name?: string }) => {
          if (options?.name === "points_engine_position") reads++;
          return target.query(text, values, options);
        };
      return Reflect.get(target, property, receiver);
    },
  });
  return { database: counted, reads: () => reads };
}

describe.each(databaseKinds)("the engine's position as served (%s)", { timeout: 120_000 }, (kind) => {
  let database: Database;
  let chain: ScriptedPointsChain;
  let watch: EnginePositionWatch;
  let own: OwnPoints;
  let reads: () => number;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    chain = ScriptedPointsChain.generate(5, 20);
    await followToHead(database, followerOn(database, chain));
    const counting = countingPositionReads(database);
    reads = counting.reads;
    watch = new EnginePositionWatch(counting.database, silentLogger());
    await watch.start();
    own = new OwnPoints(counting.database, "sluice", new Set(VAULTS), async () => scopedLedgers, watch);
  });
  afterAll(async () => {
    await watch.stop();
    await database.close();
  });

  it("answers many requests from one read of the position", async () => {
    const before = reads();
    for (let request = 0; request < 50; request++) expect((await own.view())?.block).toBe(20n);
    expect(reads() - before).toBe(0);
  });

  it("serves a step committed elsewhere once its notification arrives, without a request reading it", async () => {
    for (let block = 0; block < 3; block++) chain.mine();
    await followToHead(database, followerOn(database, chain));
    const deadline = Date.now() + 5_000;
    while ((await own.view())?.block !== 23n) {
      if (Date.now() > deadline) throw new Error(`still at ${(await own.view())?.block}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const before = reads();
    for (let request = 0; request < 50; request++) expect((await own.view())?.block).toBe(23n);
    expect(reads() - before).toBe(0);
  });
});

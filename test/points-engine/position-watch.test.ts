// The own points' serving side learns of each committed step from its notification instead of reading the engine's
// position at every request: many answers in a row read it at most once, and a step committed by another process
// (here: another lease) reaches the answers without any request asking for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { silentLogger } from "../../src/logger.ts";
import { EnginePositionWatch } from "../../src/points-engine/position-watch.ts";
import { OwnPoints } from "../../src/points-engine/serving.ts";
import {
  createEmptyPostgresDatabase,
  createTestDatabase,
  databaseKinds,
  type EmptyPostgresDatabase,
} from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { ScriptedPointsChain, scopedLedgers, VAULTS } from "../support/points-chain.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
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

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "the engine's position across a database cut (postgres)",
  () => {
    let empty: EmptyPostgresDatabase;
    let direct: Database;
    let proxy: TcpProxy;
    let proxied: Database;
    let watch: EnginePositionWatch;
    let chain: ScriptedPointsChain;
    beforeAll(async () => {
      empty = await createEmptyPostgresDatabase();
      direct = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 4 });
      await migrate(direct);
      chain = ScriptedPointsChain.generate(9, 20);
      await followToHead(direct, followerOn(direct, chain));
      const target = new URL(process.env.TEST_DATABASE_URL!);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      proxied = await openDatabase({
        kind: "postgres",
        url: proxy.proxiedUrl(empty.url),
        poolSize: 2,
        timeouts: { connectMs: 500, idleMs: 10_000, statementMs: 500, lockWaitMs: 2000, keepAliveMs: 500 },
        logger: silentLogger(),
      });
      watch = new EnginePositionWatch(proxied, silentLogger());
      await watch.start();
    }, 60_000);
    afterAll(async () => {
      proxy?.restore();
      await watch?.stop();
      await proxied?.close();
      await proxy?.close();
      await direct?.close();
      await empty?.drop();
    });

    it("never serves the position from before a cut once the database is back: the steps committed meanwhile show", async () => {
      expect((await watch.current())?.blockNumber).toBe(20n);
      proxy.cut();
      proxy.refuse();
      // The engine, on another connection, steps on while this replica cannot hear it.
      for (let block = 0; block < 4; block++) chain.mine();
      await followToHead(direct, followerOn(direct, chain));
      await expect(watch.current()).rejects.toThrow();
      proxy.restore();
      // From the first answer on: the position as stored now, whether read per request or re-read on reconnecting.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const answered = await watch.current().then(
          (position) => position?.blockNumber,
          () => undefined,
        );
        if (answered !== undefined) {
          expect(answered).toBe(24n);
          break;
        }
        if (Date.now() > deadline) throw new Error("the database did not answer again");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // And the kept copy is current again once the listener is back (nothing read per request then).
      await eventually(
        async () => (await watch.current())?.blockNumber === 24n,
        "the position at block 24 after the cut",
      );
    }, 60_000);
  },
);

// The engine's chain following on a scripted chain, both databases: live one-block steps and a backfill's batches
// publish the same; a restart continues from the stored position; a reorg (shallow, or deeper than the kept blocks)
// ends equal to a run that never saw the removed blocks; a step whose write fails leaves no trace in memory; a backfill
// reads the next final range while it steps the current one, and drops that read when it fails; a pipelined step
// computes the next range while its commit is in flight, commits in order, and a failed commit fails the next step.
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { PointsChainSource } from "../../src/points-engine/chain-source.ts";
import { PointsEngineLease } from "../../src/points-engine/lease.ts";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import { readPosition } from "../../src/points-engine/store/position.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { SCOPE, ScriptedPointsChain, VAULTS } from "../support/points-chain.ts";
import { followerOn, followToHead, publishedState } from "./engine-state.ts";

/**
 * `chain` as a chain source that logs the event ranges read (`#n`: block n's events read by hash) and fails the first
 * range read starting at `failFrom`.
 */
function loggedSource(chain: ScriptedPointsChain, failFrom?: bigint) {
  const ranges: string[] = [];
  let failing = failFrom;
  const source: PointsChainSource = {
    headNumber: () => chain.headNumber(),
    header: (number) => chain.header(number),
    async events(from, to) {
      ranges.push(`${from}-${to}`);
      if (from === failing) {
        failing = undefined;
        throw new Error("the node is out of reach");
      }
      return chain.events(from, to);
    },
    async blockEvents(header) {
      ranges.push(`#${header.number}`);
      return chain.blockEvents(header);
    },
  };
  return { source, ranges };
}

/**
 * Holds the next transaction `database` begins until `release` is called (the ones after it pass): a pipelined step's
 * commit kept in flight for as long as a test needs. `begun` counts the transactions asked for since it was armed.
 */
function holdNextTransaction(database: Database) {
  const db = database.db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> };
  const original = db.transaction.bind(db);
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const gate = { begun: 0, release };
  db.transaction = async (...args: unknown[]) => {
    if (gate.begun++ === 0) await held;
    return original(...args);
  };
  return gate;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("condition not met within 10 s");
}

// Slow on a loaded machine: each one-block step is a transaction.
describe.each(databaseKinds)("points engine follower (%s)", { timeout: 180_000 }, (kind) => {
  const opened: Database[] = [];
  const database = async () => {
    const db = await createTestDatabase(kind);
    opened.push(db);
    return db;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it("publishes the same whether it steps block by block or in large batches, as the ledger alone computes", async () => {
    const chain = ScriptedPointsChain.generate(7, 60);
    const [live, batched] = [await database(), await database()];
    await followToHead(live, followerOn(live, chain, { maxBlocksPerStep: 1 }));
    await followToHead(batched, followerOn(batched, chain, { maxBlocksPerStep: 50, finalityDepth: 0 }));
    const state = await publishedState(live);
    expect(await publishedState(batched)).toEqual(state);

    // The ledger stepped at every block from the start gives the same snapshots and position.
    const ledger = PointsLedger.create(SCOPE, {
      block: 0n,
      timestamp: chain.blocks[0]!.timestamp,
      accrualStartBlock: 1n,
    });
    const snapshots: bigint[] = [];
    for (const block of chain.blocks.slice(1)) {
      ledger.step({ number: block.number, timestamp: block.timestamp, events: block.events });
      if (block.number % 10n === 0n) snapshots.push(ledger.snapshot().total);
    }
    expect(state.snapshots.map((s) => s.total)).toEqual(snapshots);
    expect(state.snapshots.map((s) => s.block)).toEqual(snapshots.map((_, i) => BigInt((i + 1) * 10)));
    expect(state.position).toMatchObject({ block: 60n, emitted: ledger.snapshot().emitted });
    expect(state.position!.emitted).toBeGreaterThan(0n);
    // Every unit emitted is some receiver's.
    expect(state.current.reduce((sum, amount) => sum + amount.points, 0n)).toBe(state.position!.emitted);
  });

  it("continues after a restart from the stored position: nothing twice, nothing lost", async () => {
    const chain = ScriptedPointsChain.generate(11, 100);
    const [restarted, straight] = [await database(), await database()];
    const full = chain.blocks.splice(61);
    await followToHead(restarted, followerOn(restarted, chain, { maxBlocksPerStep: 7 }));
    chain.blocks.push(...full);
    // A new process: nothing in memory, everything from the database.
    await followToHead(restarted, followerOn(restarted, chain, { maxBlocksPerStep: 7 }));
    await followToHead(straight, followerOn(straight, chain));
    expect(await publishedState(restarted)).toEqual(await publishedState(straight));
  });

  it("rewinds a reorg that removes a deposit and ends equal to a run that never saw it", async () => {
    const chain = ScriptedPointsChain.generate(3, 40);
    const [reorged, clean] = [await database(), await database()];
    const follower = followerOn(reorged, chain, { maxBlocksPerStep: 1 });
    // A staker of its own, so its record's shares are the deposit's.
    const newcomer = "0x7700000000000000000000000000000000000077";
    chain.mine([
      { kind: "deposit", vault: VAULTS[1]!, staker: newcomer, amount: 10n ** 24n, shares: 10n ** 24n },
    ]);
    chain.mine();
    chain.mine();
    await followToHead(reorged, follower);
    const withDeposit = await publishedState(reorged);
    expect(withDeposit.position!.block).toBe(43n);
    const hasDeposit = (records: string[]) =>
      records.some(
        (r) => r.startsWith(`staker ${VAULTS[1]}:${newcomer}`) && r.includes(`"shares":"${10n ** 24n}"`),
      );
    expect(hasDeposit(withDeposit.records)).toBe(true);

    chain.reorg(3, [[], [], [], []]);
    await followToHead(reorged, follower);
    await followToHead(clean, followerOn(clean, chain));
    const state = await publishedState(reorged);
    expect(state).toEqual(await publishedState(clean));
    expect(state.position!.block).toBe(44n);
    expect(hasDeposit(state.records)).toBe(false);
    expect(state.snapshots.at(-1)!.block).toBe(40n);
  });

  it("rewinds through the journal to the newest final block of a step that also covered final blocks", async () => {
    const chain = ScriptedPointsChain.generate(19, 20);
    const random = mulberry32(19);
    const [reorged, clean] = [await database(), await database()];
    const follower = followerOn(reorged, chain, { maxBlocksPerStep: 100, finalityDepth: 10 });
    await followToHead(reorged, follower);
    // The next step covers blocks 21..40: 21..30 final (their changes taken once), 31..40 each journaled.
    for (let i = 0; i < 20; i++) chain.mine([chain.randomEvent(random)]);
    await followToHead(reorged, follower);
    expect((await publishedState(reorged)).position!.block).toBe(40n);
    // Every block above the final ones is replaced: the rewind goes back through the journal.
    chain.reorg(10, []);
    for (let i = 0; i < 11; i++) chain.mine([chain.randomEvent(random)], 7);
    await followToHead(reorged, follower);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(reorged)).toEqual(await publishedState(clean));
  });

  it("recomputes from the start block after a reorg deeper than the kept blocks", async () => {
    const chain = ScriptedPointsChain.generate(5, 60);
    const [reorged, clean] = [await database(), await database()];
    // Finality 5 blocks deep: a 20-block reorg reaches below every kept block.
    const follower = followerOn(reorged, chain, { maxBlocksPerStep: 3, finalityDepth: 5 });
    await followToHead(reorged, follower);
    const random = () => 0.5;
    chain.reorg(
      20,
      Array.from({ length: 21 }, (_, i) => (i % 4 === 0 ? [chain.randomEvent(random)] : [])),
    );
    await followToHead(reorged, follower);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(reorged)).toEqual(await publishedState(clean));
  });

  it("drops what it stepped in memory when the write fails, and goes on from the database", async () => {
    const chain = ScriptedPointsChain.generate(9, 50);
    const [db, clean] = [await database(), await database()];
    const follower = followerOn(db, chain, { maxBlocksPerStep: 10 });
    const lease = (await PointsEngineLease.acquire(db))!;
    await follower.step(lease);
    await lease.release();
    // Another process took the lease: this one's next write is refused.
    const other = (await PointsEngineLease.acquire(db))!;
    await expect(follower.step(lease)).rejects.toThrow(/lost the points engine lease/);
    expect(follower.ledger).toBeUndefined();
    await other.release();
    await followToHead(db, follower);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });

  it("reads the next final range while it steps the current one, each range once, and ends as a run without", async () => {
    const chain = ScriptedPointsChain.generate(13, 25);
    const [db, clean] = [await database(), await database()];
    const { source, ranges } = loggedSource(chain);
    const follower = followerOn(db, chain, { chain: source, maxBlocksPerStep: 10, finalityDepth: 0 });
    const lease = (await PointsEngineLease.acquire(db))!;
    await follower.step(lease);
    // The first range was read, and the next one while the first was stepped and committed.
    expect(ranges).toEqual(["1-10", "11-20"]);
    await follower.step(lease);
    expect(ranges).toEqual(["1-10", "11-20", "21-25"]);
    // The chain moves on: the range read ahead (to the old target) is stepped as it is, a shorter step.
    for (let i = 0; i < 20; i++) chain.mine();
    expect(await follower.step(lease)).toMatchObject({ position: 25n, blocks: 5 });
    await lease.release();
    await followToHead(db, follower);
    expect(ranges).toEqual(["1-10", "11-20", "21-25", "26-35", "36-45"]);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });

  it("reads no range ahead that a reorg can still remove, and a block not yet final alone, by its hash", async () => {
    const chain = ScriptedPointsChain.generate(13, 25);
    const db = await database();
    const { source, ranges } = loggedSource(chain);
    // Finality 20 blocks deep: only blocks 1..5 are final.
    const follower = followerOn(db, chain, { chain: source, maxBlocksPerStep: 5, finalityDepth: 20 });
    const lease = (await PointsEngineLease.acquire(db))!;
    await follower.step(lease);
    expect(ranges).toEqual(["1-5"]);
    await follower.step(lease);
    expect(ranges).toEqual(["1-5", "#6", "#7", "#8", "#9", "#10"]);
    await lease.release();
  });

  it("never steps a block a node behind the head answered as empty", async () => {
    const chain = ScriptedPointsChain.generate(31, 40);
    // Every block from 30 on has a deposit: the ones a lagging node leaves out of a range are never empty.
    for (let i = 0; i < 10; i++) chain.mine([chain.randomEvent(mulberry32(i))]);
    const db = await database();
    // A node three blocks behind answers a range reaching past its head with the blocks it has, and no error (older
    // clients, a load balancer's lagging node); headers and reads by hash come from one that is up to date.
    const lagging: PointsChainSource = {
      headNumber: () => chain.headNumber(),
      header: (number) => chain.header(number),
      events: (from, to) => chain.events(from, to < chain.head - 3n ? to : chain.head - 3n),
      blockEvents: (header) => chain.blockEvents(header),
    };
    await followToHead(db, followerOn(db, chain, { chain: lagging, maxBlocksPerStep: 7, finalityDepth: 5 }));
    const clean = await database();
    await followToHead(clean, followerOn(clean, chain, { maxBlocksPerStep: 7, finalityDepth: 5 }));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });

  it("steps the next range in memory while a pipelined step commits, and commits in order", async () => {
    const chain = ScriptedPointsChain.generate(23, 25);
    const [db, clean] = [await database(), await database()];
    const { source, ranges } = loggedSource(chain);
    const follower = followerOn(db, chain, { chain: source, maxBlocksPerStep: 10, finalityDepth: 0 });
    const lease = (await PointsEngineLease.acquire(db))!;
    const gate = holdNextTransaction(db);
    // The next range was read ahead: the step returns with its commit (of 1..10) in flight, held.
    expect(await follower.step(lease, { pipelined: true })).toMatchObject({ position: 10n, blocks: 10 });
    expect(ranges).toEqual(["1-10", "11-20"]);
    const second = follower.step(lease, { pipelined: true });
    // The next step computes 11..20 in memory meanwhile, and begins no transaction of its own before the first
    // commit has ended: nothing of either step is stored yet.
    await until(() => follower.ledger?.position.block === 20n);
    expect(ranges).toEqual(["1-10", "11-20", "21-25"]);
    expect(gate.begun).toBe(1);
    expect(await readPosition(db)).toBeUndefined();
    gate.release();
    expect(await second).toMatchObject({ position: 20n, blocks: 10 });
    expect(gate.begun).toBe(2);
    await follower.settle();
    expect((await readPosition(db))?.blockNumber).toBe(20n);
    // The last range has nothing read ahead after it: its commit is awaited by the step itself.
    expect(await follower.step(lease, { pipelined: true })).toMatchObject({ position: 25n, blocks: 5 });
    expect((await readPosition(db))?.blockNumber).toBe(25n);
    await lease.release();
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });

  it("fails the step after a pipelined commit that failed, dropping what it stepped on top of it", async () => {
    const chain = ScriptedPointsChain.generate(29, 30);
    const [db, clean] = [await database(), await database()];
    const follower = followerOn(db, chain, { maxBlocksPerStep: 10, finalityDepth: 0 });
    const lease = (await PointsEngineLease.acquire(db))!;
    await follower.step(lease);
    const gate = holdNextTransaction(db);
    expect(await follower.step(lease, { pipelined: true })).toMatchObject({ position: 20n });
    // Another process takes the lease while the commit of 11..20 waits: that commit is refused when it runs.
    await lease.release();
    const other = (await PointsEngineLease.acquire(db))!;
    gate.release();
    await expect(follower.step(lease, { pipelined: true })).rejects.toThrow(/lost the points engine lease/);
    expect(follower.ledger).toBeUndefined();
    expect((await readPosition(db))?.blockNumber).toBe(10n);
    await follower.settle();
    await other.release();
    await followToHead(db, follower);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });

  it("drops a range read ahead whose read failed, and reads it again at the next step", async () => {
    const chain = ScriptedPointsChain.generate(17, 40);
    const [db, clean] = [await database(), await database()];
    const { source, ranges } = loggedSource(chain, 11n);
    const follower = followerOn(db, chain, { chain: source, maxBlocksPerStep: 10, finalityDepth: 0 });
    const lease = (await PointsEngineLease.acquire(db))!;
    // The read ahead fails while nothing waits for it: no unhandled rejection, the step itself succeeds.
    expect(await follower.step(lease)).toMatchObject({ position: 10n });
    expect(ranges).toEqual(["1-10", "11-20"]);
    await expect(follower.step(lease)).rejects.toThrow(/out of reach/);
    expect(follower.ledger).toBeUndefined();
    await lease.release();
    await followToHead(db, follower);
    expect(ranges.slice(0, 4)).toEqual(["1-10", "11-20", "11-20", "21-30"]);
    await followToHead(clean, followerOn(clean, chain));
    expect(await publishedState(db)).toEqual(await publishedState(clean));
  });
});

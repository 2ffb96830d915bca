// A points engine in a process of its own, for the kill -9 test: it follows a scripted chain whose head grows with
// the wall clock from a moment the test fixes (a backlog first, a block every --ms-per-block after), so a restarted
// child finds the chain where an uninterrupted one would. Prints "started" once the engine runs and "done" once its
// stored position is the chain's last block.
import { parseArgs } from "node:util";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { silentLogger } from "../../src/logger.ts";
import type { PointsChainSource } from "../../src/points-engine/chain-source.ts";
import { PointsEngine } from "../../src/points-engine/engine.ts";
import { PointsFollower } from "../../src/points-engine/follower.ts";
import { minOf } from "../../src/points-engine/formula.ts";
import { readPosition } from "../../src/points-engine/store/position.ts";
import { ScriptedPointsChain, scopedLedgers } from "../support/points-chain.ts";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    seed: { type: "string" },
    blocks: { type: "string" },
    backlog: { type: "string" },
    t0: { type: "string" },
    "ms-per-block": { type: "string" },
  },
});
const blocks = Number(values.blocks);
const chain = ScriptedPointsChain.generate(Number(values.seed), blocks);
const t0 = Number(values.t0);
const msPerBlock = Number(values["ms-per-block"]);
const head = () =>
  BigInt(Math.min(blocks, Number(values.backlog) + Math.floor((Date.now() - t0) / msPerBlock)));
const growing: PointsChainSource = {
  headNumber: async () => head(),
  header: async (n) => (n <= head() ? chain.header(n) : undefined),
  // Never past the head of the moment: a later block does not exist yet.
  events: (from, to) => chain.events(from, minOf(to, head())),
  blockEvents: (header) => chain.blockEvents(header),
};

const url = values.db!;
const database: Database = url.startsWith("postgres")
  ? await openDatabase({ kind: "postgres", url, poolSize: 4 })
  : await openDatabase({ kind: "pglite", dataDir: url });
await migrate(database);
const follower = new PointsFollower({
  database,
  clock: { now: () => new Date() },
  logger: silentLogger(),
  chain: growing,
  ledgers: async () => scopedLedgers,
  startBlock: 2n,
  historyFromBlock: 1n,
  confirmations: 0,
  finalityDepth: 64,
  snapshotEveryBlocks: 10,
  // Small steps: many transactions to be killed in the middle of.
  maxBlocksPerStep: 9,
});
const engine = new PointsEngine({ database, follower, logger: silentLogger(), pollIntervalMs: 10 });
engine.start();
process.stdout.write("started\n");
for (;;) {
  const position = await readPosition(database);
  if (position?.blockNumber === BigInt(blocks)) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
await engine.stop();
await database.close();
process.stdout.write("done\n");

// The engine under test, in a process of its own (so its peak RSS is its own): the deployment's points engine as
// src/points-engine/build.ts builds it, over the production chain client (the bench node's Multicall3), on the given
// PostgreSQL database (already migrated). It backfills to the head, printing progress lines, then follows the chain
// live from new-head notifications (the node's WebSocket), as `sluice serve` does with RPC_WS_URL.
//
// argv: plan JSON, RPC URL, database URL. stdout: one JSON line per event ("backfill started", "backfill
// progress", "backfilled", "following").

import { createChainPublicClient } from "../../src/chain/client.ts";
import { HeadFollower } from "../../src/chain/heads.ts";
import { systemClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { PointsEngineConfigSchema } from "../../src/deployment/schema.ts";
import { createLogger } from "../../src/logger.ts";
import { buildPointsEngine } from "../../src/points-engine/build.ts";
import { backfill } from "../../src/points-engine/engine.ts";
import { CHAIN_ID_FOR_ENGINE, engineConfigOf, MULTICALL3_ADDRESS } from "./engine-config.ts";
import type { HistoryPlan } from "./history.ts";

const spawnedAt = performance.timeOrigin;
const plan = JSON.parse(process.argv[2] ?? "null") as HistoryPlan;
const rpcUrl = process.argv[3] ?? "";
const databaseUrl = process.argv[4] ?? "";
const say = (msg: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(
    `${JSON.stringify({ msg, at: performance.timeOrigin + performance.now(), ...fields })}\n`,
  );

const logger = createLogger({ level: process.env.LOG_LEVEL ?? "warn", destination: "stderr" });
const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 4 });
const client = createChainPublicClient({
  chainId: CHAIN_ID_FOR_ENGINE,
  rpcUrls: rpcUrl,
  multicall3: MULTICALL3_ADDRESS,
});
const config = PointsEngineConfigSchema.parse(engineConfigOf(plan));
const heads = new HeadFollower({
  client,
  webSocketUrl: rpcUrl.replace(/^http/, "ws"),
  pollMs: 250,
  logger,
});
const parts = buildPointsEngine({
  config,
  confirmationDepth: 0,
  finalityDepth: 64,
  client,
  database,
  clock: systemClock,
  logger,
  heads,
});

say("backfill started", { spawnedAt });
const cpuAtStart = process.cpuUsage();
let lastReport = 0;
const progress = await backfill({
  database,
  follower: parts.follower,
  onProgress: (p) => {
    const now = performance.now();
    if (now - lastReport < 2000) return;
    lastReport = now;
    say("backfill progress", {
      position: p.position?.toString(),
      target: p.target.toString(),
      events: p.events,
    });
  },
});
say("backfilled", {
  position: progress.position?.toString(),
  target: progress.target.toString(),
  blocks: progress.blocks,
  events: progress.events,
  maxRssKb: process.resourceUsage().maxRSS,
  // The engine's own CPU over the backfill (user + system): its work, whatever the load of the shared cores.
  cpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpuAtStart)),
  heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
});

heads.start();
parts.engine.start();
say("following");
process.on("SIGTERM", async () => {
  await parts.engine.stop();
  heads.stop();
  say("stopped", { maxRssKb: process.resourceUsage().maxRSS });
  await database.close();
  process.exit(0);
});

// The points-engine suite (issue 22): the engine's backfill over a generated history served by a bench JSON-RPC node
// (bench/points-engine/fake-rpc.ts, its own process), then its live steps. PostgreSQL only (the database);
// the suite's own database `sluice_bench_points_engine` is created fresh and dropped at the end.
//
// Backfill: from the moment the engine process starts its backfill (database open, client built; the process's
// boot is reported apart) to the moment its position is the history's last block (the engine's own "backfilled"
// line, checked against the stored position). Peak RSS: the engine process's maxRSS (the kernel's high-water mark).
// CPU: the engine process's own, and its PostgreSQL backends' over the same interval (/proc: a local server).
// Live: a block with deposits appended at the node's head and announced on its newHeads subscription; measured
// from that announcement to the stored position reaching the block (polled every 2 ms on a connection of the
// suite's own): the engine's step commits the block's points and its aggregates in the same transaction.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ownDatabase } from "../lib/bench-databases.ts";
import { cpuDuring } from "../lib/cpu.ts";
import { loadAverage, machineFacts } from "../lib/machine.ts";
import { openBackendProbe } from "../lib/pg-backends.ts";
import { startScript } from "../lib/script-process.ts";
import { FULL_PLAN, type HistoryPlan, scaledPlan, setupEventCount } from "../points-engine/history.ts";
import type { BenchSuite, SuiteOptions, SuiteResult } from "./types.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LIVE_BLOCKS = 30;
const LIVE_EVENTS_PER_BLOCK = 5;
const TARGETS = { blocksPerSecond: 5_000, eventsPerSecond: 20_000, rssMb: 500, liveMs: 200 };

interface EngineLine {
  msg: string;
  at: number;
  [field: string]: unknown;
}

/** The engine process: its lines as they come, awaited by message. */
class EngineProcess {
  readonly lines: EngineLine[] = [];
  #waiters: { msg: string; resolve: (line: EngineLine) => void }[] = [];
  exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    const stdout = child.stdout;
    if (!stdout) throw new Error("engine process has no stdout");
    createInterface({ input: stdout }).on("line", (text) => {
      let line: EngineLine;
      try {
        line = JSON.parse(text) as EngineLine;
      } catch {
        return;
      }
      this.lines.push(line);
      if (line.msg === "backfill progress")
        process.stderr.write(
          `[points-engine] at ${line.position} of ${line.target}, ${line.events} events\n`,
        );
      for (const waiter of this.#waiters.filter((w) => w.msg === line.msg)) waiter.resolve(line);
      this.#waiters = this.#waiters.filter((w) => w.msg !== line.msg);
    });
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  next(msg: string): Promise<EngineLine> {
    const seen = this.lines.find((line) => line.msg === msg);
    if (seen) return Promise.resolve(seen);
    return Promise.race([
      new Promise<EngineLine>((resolve) => this.#waiters.push({ msg, resolve })),
      this.exited.then((code) => {
        throw new Error(`the engine process exited (${code}) before "${msg}"`);
      }),
    ]);
  }
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(options: SuiteOptions): Promise<SuiteResult> {
  const plan: HistoryPlan = options.pointsScale === 1 ? FULL_PLAN : scaledPlan(options.pointsScale);
  const machine = machineFacts();
  const loadAtStart = loadAverage();
  const startedAt = new Date().toISOString();
  process.stderr.write(`[points-engine] plan ${JSON.stringify(plan)}\n`);

  const node = await startScript<{ url: string; lastBlock: number; events: number; generationMs: number }>(
    "bench/points-engine/fake-rpc.ts",
    { readyMessage: "fake rpc ready", args: [JSON.stringify(plan)] },
  );
  const database = ownDatabase("postgres", "points_engine");
  await database.reset();
  const migrated = await database.open();
  await migrated.close();
  const databaseUrl = database.serveEnv.DATABASE_URL!;
  const version = await database.version();
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  const backends = await openBackendProbe(databaseUrl);

  const profileDir = process.env.POINTS_BENCH_CPU_PROF;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const spawnedAt = now();
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      "--import",
      "tsx",
      "bench/points-engine/engine-process.ts",
      JSON.stringify(plan),
      node.ready.url,
      databaseUrl,
    ],
    { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const engine = new EngineProcess(child);
  try {
    const started = await engine.next("backfill started");
    // PostgreSQL's share of the work: the CPU of the database's backends (the engine's connections; the suite's
    // watcher is idle meanwhile), read from /proc as the server runs on this machine.
    const { result: backfilled, cpuMs: databaseCpuMs } = await cpuDuring(
      () => backends.pids(),
      () => engine.next("backfilled"),
    );
    const stored = await watcher.query<{ block_number: string }>(
      "select block_number::text as block_number from points_engine_position",
    );
    const position = Number(stored.rows[0]?.block_number ?? -1);
    if (position !== node.ready.lastBlock)
      throw new Error(
        `backfill ended at ${position}, not at the history's last block ${node.ready.lastBlock}`,
      );
    const backfillSeconds = (backfilled.at - started.at) / 1000;
    const blocks = Number(backfilled.blocks);
    const events = Number(backfilled.events);
    const backfill = {
      bootSeconds: (started.at - spawnedAt) / 1000,
      seconds: backfillSeconds,
      blocks,
      events,
      blocksPerSecond: blocks / backfillSeconds,
      eventsPerSecond: events / backfillSeconds,
      peakRssMb: Number(backfilled.maxRssKb) / 1024,
      heapUsedMb: Number(backfilled.heapUsedMb),
      cpuSeconds: Number(backfilled.cpuMs) / 1000,
      databaseCpuSeconds: databaseCpuMs / 1000,
      loadAtEnd: loadAverage(),
    };
    process.stderr.write(`[points-engine] backfill ${JSON.stringify(backfill)}\n`);

    await engine.next("following");
    await sleep(1000);
    const latencies: number[] = [];
    for (let k = 0; k < LIVE_BLOCKS; k++) {
      const response = await fetch(`${node.ready.url}/bench/append`, {
        method: "POST",
        body: JSON.stringify({ events: LIVE_EVENTS_PER_BLOCK }),
      });
      const { block, announcedAt } = (await response.json()) as { block: number; announcedAt: number };
      const deadline = announcedAt + 10_000;
      for (;;) {
        const row = await watcher.query<{ block_number: string }>(
          "select block_number::text as block_number from points_engine_position",
        );
        if (Number(row.rows[0]?.block_number ?? -1) >= block) {
          latencies.push(now() - announcedAt);
          break;
        }
        if (now() > deadline) throw new Error(`block ${block} not computed within 10 s`);
        await sleep(2);
      }
      await sleep(300);
    }
    // The first live block also waits for the running engine to take the lease the backfill released and to
    // restore its ledger from the database: reported apart from the steady blocks.
    const sorted = latencies.slice(1).sort((a, b) => a - b);
    const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const live = {
      blocks: LIVE_BLOCKS,
      eventsPerBlock: LIVE_EVENTS_PER_BLOCK,
      firstMs: latencies[0]!,
      p50Ms: quantile(0.5),
      p90Ms: quantile(0.9),
      maxMs: sorted.at(-1)!,
      latenciesMs: latencies.map((ms) => Math.round(ms * 10) / 10),
    };
    child.kill("SIGTERM");
    const stopped = await engine.next("stopped");
    await engine.exited;
    const overallPeakRssMb = Number(stopped.maxRssKb) / 1024;
    const loadAtEnd = loadAverage();
    const json = {
      startedAt,
      machine,
      loadAtStart,
      loadAtEnd,
      plan,
      version,
      node: node.ready,
      backfill,
      live,
      overallPeakRssMb,
    };
    return { text: report(json), json };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await watcher.end();
    await backends.close();
    await node.stop();
    await database.reset();
  }
}

const f = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? "pass" : "**FAIL**");

function report(r: {
  startedAt: string;
  machine: ReturnType<typeof machineFacts>;
  loadAtStart: number;
  loadAtEnd: number;
  plan: HistoryPlan;
  version: string;
  node: { generationMs: number; events: number; lastBlock: number };
  backfill: {
    bootSeconds: number;
    seconds: number;
    blocks: number;
    events: number;
    blocksPerSecond: number;
    eventsPerSecond: number;
    peakRssMb: number;
    heapUsedMb: number;
    cpuSeconds: number;
    databaseCpuSeconds: number;
    loadAtEnd: number;
  };
  live: {
    blocks: number;
    eventsPerBlock: number;
    firstMs: number;
    p50Ms: number;
    p90Ms: number;
    maxMs: number;
  };
  overallPeakRssMb: number;
}): string {
  const { plan, backfill, live, machine } = r;
  const full = JSON.stringify(plan) === JSON.stringify(FULL_PLAN);
  return [
    `### Points engine benchmark, ${r.startedAt}`,
    "",
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. Load average (1 min) ${r.loadAtStart} at the start, ${backfill.loadAtEnd} at the end of the backfill and ${r.loadAtEnd} at the end.`,
    "",
    `Database: ${r.version}, created for the run and dropped after it.`,
    "",
    `History${full ? "" : " (scaled down: NOT the issue's size)"}: ${f(plan.blocks)} blocks, ${f(plan.vaults)} vaults (network-restake delegators, 2 networks and 5 operators each), ${f(plan.networks)} networks, ${f(plan.operators)} operators, ${f(plan.stakers)} stakers, ${f(r.node.events)} events (${f(setupEventCount(plan))} setup: opt-ins, limits, operator shares; then deposits and withdrawals ~98%, price updates 1%, limit and share changes 1%), spread evenly over the blocks; seed ${plan.seed}; generated by the bench node in ${f(r.node.generationMs)} ms. Served by the bench JSON-RPC node in its own process (eth_getLogs with block timestamps, at most 10,000 logs per answer; Multicall3 views; newHeads over WebSocket). Engine: \`buildPointsEngine\` + \`backfill\` (src/points-engine) in its own process over the production chain client, snapshots every 1,000 blocks, confirmations 0.`,
    "",
    "| measure | value | start → end |",
    "|---|---|---|",
    `| backfill | ${f(backfill.blocks)} blocks, ${f(backfill.events)} events in ${f(backfill.seconds, 1)} s | the engine process calling backfill (after ${f(backfill.bootSeconds, 1)} s of process boot, database open) → its position = block ${f(r.node.lastBlock)} (the history's last), checked in the database |`,
    `| blocks/s | ${f(backfill.blocksPerSecond)} | same |`,
    `| events/s | ${f(backfill.eventsPerSecond)} | same |`,
    `| engine CPU (backfill) | ${f(backfill.cpuSeconds, 1)} s user + system (${f((backfill.cpuSeconds * 1e6) / backfill.blocks, 1)} µs per block) | the engine process's own CPU time over the same interval (not PostgreSQL's or the node's): its work whatever the load |`,
    `| PostgreSQL CPU (backfill) | ${f(backfill.databaseCpuSeconds, 1)} s user + system (${f((backfill.databaseCpuSeconds * 1e6) / backfill.blocks, 1)} µs per block) | the bench database's backends (the engine's connections) over the same interval, from /proc; a backend that exited meanwhile is not counted |`,
    `| engine peak RSS (backfill) | ${f(backfill.peakRssMb)} MB (V8 heap used at the end ${f(backfill.heapUsedMb)} MB) | the process's maxRSS at the end of the backfill |`,
    `| engine peak RSS (whole run) | ${f(r.overallPeakRssMb)} MB | maxRSS when stopped, after the live blocks |`,
    `| live: block announced → computed | p50 ${f(live.p50Ms, 1)} ms, p90 ${f(live.p90Ms, 1)} ms, max ${f(live.maxMs, 1)} ms over blocks 2–${live.blocks} of ${live.eventsPerBlock} deposits each, one every ~0.3 s | the node announcing the block on its newHeads subscription → the stored position at that block (polled every 2 ms; the step commits the block's points in the same transaction) |`,
    `| live: the first block | ${f(live.firstMs, 1)} ms | as above; includes the running engine taking the lease the backfill released and restoring its ledger from the database |`,
    "",
    "| target | measured | result |",
    "|---|---|---|",
    `| backfill ≥ ${f(TARGETS.blocksPerSecond)} blocks/s | ${f(backfill.blocksPerSecond)} | ${verdict(backfill.blocksPerSecond >= TARGETS.blocksPerSecond)} |`,
    `| backfill ≥ ${f(TARGETS.eventsPerSecond)} events/s | ${f(backfill.eventsPerSecond)} | ${verdict(backfill.eventsPerSecond >= TARGETS.eventsPerSecond)} |`,
    `| RSS < ${TARGETS.rssMb} MB | ${f(r.overallPeakRssMb)} MB | ${verdict(r.overallPeakRssMb < TARGETS.rssMb)} |`,
    `| live block computed within ${TARGETS.liveMs} ms | max ${f(live.maxMs, 1)} ms (blocks 2–${live.blocks}) | ${verdict(live.maxMs <= TARGETS.liveMs)} |`,
    "",
    "Through a running server, see the points-live suite (`--suite points-live`): from the block on the chain to `GET /points/total/current` answering at it, and the `/points/*` reads with the engine running against a replica without it.",
  ].join("\n");
}

export const pointsEngineSuite: BenchSuite = {
  name: "points-engine",
  description: "the points engine's backfill and live steps over a generated history (PostgreSQL)",
  run,
};

// The points-live suite (issue 22): the own points type as a dashboard sees it, on the devnet (`sluice serve` without a
// deployment, in its own process, a fresh data directory and database, anvil mining a block a second, the devnet's
// points system and scripted staking activity, the engine following heads over WebSocket).
//
// Live: from a block being on the chain (a watcher subscribed to newHeads over WebSocket on anvil receives it) to
// the server answering `GET /points/total/current` with the own type's records at that block (`last_block`), read by
// a client asking every POLL_MS on one keep-alive connection: the engine's step, its commit and the serving replica's
// read of the new position, as a dashboard polling the route would see them.
//
// Reads with the engine running: `/points/total/current` and one staker's `/points/receiver/{a}/current` loaded in
// alternating one-second rounds beside a bare Fastify process sending the same bytes. On PostgreSQL the devnet runs
// with POINTS_ENGINE=off, replica "engine" (on the devnet's deployment file, database and chain) computes the points,
// and replica "without" (POINTS_ENGINE=off) only serves them: both are measured in the same rounds, the engine's cost
// to reads being the difference. On PGlite (one process) the devnet computes and serves, with nothing to compare.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { loadInRounds } from "../lib/against-bare.ts";
import { ownDatabase, pgliteDatabase } from "../lib/bench-databases.ts";
import { quantile } from "../lib/closed-loop.ts";
import { watchHeadsOverWebSocket } from "../lib/head-watchers.ts";
import { fetchBody } from "../lib/http.ts";
import { loadAverage } from "../lib/machine.ts";
import { type RunningProcess, startBare } from "../lib/processes.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { machineLine, runConditions, targetsSection, type Verdict } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import { devnetReplicaEnv, readEndpoints } from "./swap-fill-latency.ts";
import type { BenchSuite } from "./types.ts";

const OWN_TYPE = "sluice";
const LIVE_BLOCKS = 40;
const POLL_MS = 5;
/** The reads' ratio to bare with the engine running, against a replica without it: "unchanged", within the noise. */
const TARGETS = { liveMs: 200, readsKept: 0.9 };
/** How long the engine may take to reach the head after the devnet starts (it backfills the deploy blocks first). */
const CATCH_UP_MS = 120_000;

interface LiveSample {
  block: number;
  headSeenAt: number;
  servedAt: number | null;
}

interface ReadRow {
  route: string;
  bodyBytes: number;
  bareRps: number;
  bareCpuUs: number;
  rps: number;
  cpuUs: number;
  /** The replica without the engine (PostgreSQL), in the same rounds. */
  without?: { rps: number; cpuUs: number };
}

interface PointsLiveRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  pollMs: number;
  live: LiveSample[];
  reads: ReadRow[];
  loadAverage: { start: number; end: number };
}

export const pointsLiveSuite: BenchSuite = {
  name: "points-live",
  description:
    "the own points on the devnet: block seen over newHeads → /points/total/current answering at it; /points/* reads vs bare Fastify with the engine running",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const runs: PointsLiveRun[] = [];
    for (const kind of options.databases) runs.push(await measureRun(kind, options));
    const report = { suite: "points-live", ...runConditions(startedAt, loadAtStart, loadAverage()), runs };
    return { text: formatReport(report), json: report };
  },
};

async function measureRun(
  kind: BenchDatabaseKind,
  options: { connections: number; durationSeconds: number },
): Promise<PointsLiveRun> {
  const loadAtStart = loadAverage();
  const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-points-live-"));
  const dataDir = join(scratch, "a");
  const database = kind === "postgres" ? ownDatabase(kind, "points_live") : pgliteDatabase(dataDir);
  const servers: RunningProcess[] = [];
  try {
    await database.reset();
    const databaseEnv = kind === "postgres" ? database.serveEnv : { DATABASE_URL: "" };
    if (kind === "postgres") await (await database.open()).close();
    const databaseVersion = await database.version();
    // On PostgreSQL the devnet (its chain, the bundled solvers polling it, the indexer) leaves the engine to a replica
    // of its own, and a third replica runs neither: the two serve the same points with the same duties but the engine.
    const replicated = kind === "postgres";
    log(`${kind}: starting the devnet${replicated ? " without its engine" : ""}`);
    const devnet = await startSluiceServer(
      {
        DEPLOYMENT: "",
        DEPLOYMENT_FILE: "",
        ...databaseEnv,
        DATA_DIR: dataDir,
        ...(replicated ? { POINTS_ENGINE: "off" } : {}),
      },
      { logFile: join(scratch, "devnet.log") },
    );
    servers.push(devnet);
    const endpoints = await readEndpoints(dataDir);
    const replica = async (name: string, env: Record<string, string>) => {
      log(`${kind}: starting replica ${name}`);
      const server = await startSluiceServer(
        {
          ...databaseEnv,
          ...devnetReplicaEnv(dataDir, endpoints, join(scratch, name)),
          RPC_WS_URL: endpoints.rpcUrl.replace(/^http/, "ws"),
          ...env,
        },
        { logFile: join(scratch, `${name}.log`) },
      );
      servers.push(server);
      return server;
    };
    const engine = replicated ? await replica("engine", {}) : devnet;
    const without = replicated ? await replica("without", { POINTS_ENGINE: "off" }) : undefined;
    const heads = await watchHeadsOverWebSocket(endpoints.rpcUrl.replace(/^http/, "ws"));
    const totalUrl = `${engine.baseUrl}/points/total/current`;
    try {
      log(`${kind}: waiting for the engine to reach the head`);
      const first = await caughtUp(totalUrl, endpoints.rpcUrl);
      log(`${kind}: following ${LIVE_BLOCKS} blocks from block ${first + 1}`);
      const live = await followLive(totalUrl, heads, first + 1);
      const reads = await measureReads(engine, without, scratch, options);
      return {
        kind,
        databaseVersion,
        pollMs: POLL_MS,
        live,
        reads,
        loadAverage: { start: loadAtStart, end: loadAverage() },
      };
    } finally {
      heads.stop();
    }
  } finally {
    for (const server of servers.reverse()) await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The newest block of the own type's records in a /points/total/current answer; -1 when it has none. */
function ownBlock(body: Buffer): number {
  const records = JSON.parse(body.toString("utf8")) as Array<{ points_type: string; last_block: number }>;
  const own = records.filter((record) => record.points_type === OWN_TYPE);
  return own.length === 0 ? -1 : Math.max(...own.map((record) => Number(record.last_block)));
}

async function headNumber(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  return Number(((await response.json()) as { result: string }).result);
}

/** Waits until the served own points are at the chain's head; answers that block. */
async function caughtUp(totalUrl: string, rpcUrl: string): Promise<number> {
  const deadline = Date.now() + CATCH_UP_MS;
  while (Date.now() < deadline) {
    const answer = await fetchBody(totalUrl);
    const served = answer.status === 200 ? ownBlock(answer.body) : -1;
    if (served >= 0 && served >= (await headNumber(rpcUrl))) return served;
    await sleep(100);
  }
  throw new Error(`the own points did not reach the chain's head within ${CATCH_UP_MS / 1000} s`);
}

/**
 * Asks every POLL_MS until the answer is at block `from + LIVE_BLOCKS - 1`, noting when each block was first served
 * (a step over two blocks serves both at once); then pairs each block with when the watcher saw it.
 */
async function followLive(
  totalUrl: string,
  heads: { seenAt(number: bigint): number | undefined },
  from: number,
): Promise<LiveSample[]> {
  const last = from + LIVE_BLOCKS - 1;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const servedAt = new Map<number, number>();
  let served = from - 1;
  const deadline = Date.now() + (LIVE_BLOCKS + 30) * 1000;
  try {
    while (served < last) {
      if (Date.now() > deadline) throw new Error(`block ${last} not served in time (at ${served})`);
      const asked = Date.now();
      const body = await get(agent, totalUrl);
      const now = Date.now();
      const block = ownBlock(body);
      for (let number = served + 1; number <= Math.min(block, last); number++) servedAt.set(number, now);
      served = Math.max(served, block);
      const wait = POLL_MS - (now - asked);
      if (wait > 0) await sleep(wait);
    }
  } finally {
    agent.destroy();
  }
  const samples: LiveSample[] = [];
  for (let number = from; number <= last; number++) {
    const headSeenAt = heads.seenAt(BigInt(number));
    if (headSeenAt === undefined) throw new Error(`the newHeads watcher never saw block ${number}`);
    samples.push({ block: number, headSeenAt, servedAt: servedAt.get(number) ?? null });
  }
  return samples;
}

function get(agent: Agent, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        response.statusCode === 200
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(`${url}: ${response.statusCode}`)),
      );
    })
      .on("error", reject)
      .end();
  });
}

/** The total and one staker's points, each against bare Fastify sending its bytes, the engine stepping meanwhile. */
async function measureReads(
  server: RunningProcess,
  replica: RunningProcess | undefined,
  scratch: string,
  options: { connections: number; durationSeconds: number },
): Promise<ReadRow[]> {
  const total = await fetchBody(`${server.baseUrl}/points/total/current`);
  const records = JSON.parse(total.body.toString("utf8")) as Array<{
    points_type: string;
    items: Array<{ vault_address: string }>;
  }>;
  const vault = records.find((record) => record.points_type === OWN_TYPE)?.items[0]?.vault_address;
  if (!vault) throw new Error("no vault has own points");
  const byReceiver = await fetchBody(`${server.baseUrl}/points/vault/${vault}/current`);
  const receiver = (
    JSON.parse(byReceiver.body.toString("utf8")) as Array<{
      points_type: string;
      items: Array<{ receiver_address: string }>;
    }>
  ).find((record) => record.points_type === OWN_TYPE)?.items[0]?.receiver_address;
  if (!receiver) throw new Error(`no receiver has own points in vault ${vault}`);
  const rows: ReadRow[] = [];
  for (const path of ["/points/total/current", `/points/receiver/${receiver}/current`]) {
    const sample = await fetchBody(`${server.baseUrl}${path}`);
    const bodyFile = join(scratch, "body.json");
    writeFileSync(bodyFile, sample.body);
    const bare = await startBare({ bodyFile });
    try {
      log(`GET ${path} (${sample.body.length} bytes) vs bare, ${options.durationSeconds} rounds`);
      const figures = await loadInRounds(
        [
          { name: "bare", url: `${bare.baseUrl}/body`, pid: bare.child.pid! },
          { name: "sluice", url: `${server.baseUrl}${path}`, pid: server.child.pid! },
          ...(replica
            ? [{ name: "without", url: `${replica.baseUrl}${path}`, pid: replica.child.pid! }]
            : []),
        ],
        { connections: options.connections, rounds: options.durationSeconds, warmupSeconds: 1 },
      );
      const ours = figures.get("sluice")!;
      const bareFigures = figures.get("bare")!;
      const without = figures.get("without");
      rows.push({
        route: path.replace(receiver, "{a}"),
        bodyBytes: sample.body.length,
        bareRps: bareFigures.rps,
        bareCpuUs: bareFigures.cpuUsPerRequest,
        rps: ours.rps,
        cpuUs: ours.cpuUsPerRequest,
        ...(without ? { without: { rps: without.rps, cpuUs: without.cpuUsPerRequest } } : {}),
      });
    } finally {
      await bare.stop();
    }
  }
  return rows;
}

function latencies(run: PointsLiveRun): number[] {
  return run.live.flatMap((sample) =>
    sample.servedAt === null ? [] : [sample.servedAt - sample.headSeenAt],
  );
}

function formatReport(report: ReturnType<typeof runConditions> & { runs: PointsLiveRun[] }): string {
  const lines = [
    `### The own points on the devnet, ${report.startedAt}`,
    "",
    machineLine(report),
    "",
    "Start and end points, on the bench's clock: **head seen** is when the bench's watcher, subscribed to `newHeads` " +
      "over WebSocket on anvil, received the block; **served** is when a client asking `GET /points/total/current` " +
      `every ${POLL_MS} ms on one keep-alive connection first read an answer whose own-type (\`${OWN_TYPE}\`) records ` +
      "have `last_block` at or past the block. Percentiles are nearest-rank.",
  ];
  for (const run of report.runs) {
    const ms = latencies(run);
    const verdicts: Verdict[] = [
      {
        target: `block seen → served within ${TARGETS.liveMs} ms`,
        measured: `max ${formatNumber(Math.max(...ms))} ms over ${ms.length} blocks`,
        pass: ms.length === run.live.length && Math.max(...ms) <= TARGETS.liveMs,
      },
      ...run.reads.flatMap((row) =>
        row.without
          ? [
              {
                target: `GET ${row.route} with the engine running ≥ ${TARGETS.readsKept} × the replica without it (req/s, same rounds)`,
                measured: `${(row.rps / row.without.rps).toFixed(2)} × (${(row.rps / row.bareRps).toFixed(2)} × vs ${(row.without.rps / row.bareRps).toFixed(2)} × bare)`,
                pass: row.rps >= TARGETS.readsKept * row.without.rps,
              },
            ]
          : [],
      ),
    ];
    lines.push(
      "",
      `#### ${run.kind === "postgres" ? "PostgreSQL" : "PGlite"} ${run.databaseVersion}`,
      "",
      `Load average ${run.loadAverage.start} at the start, ${run.loadAverage.end} at the end.`,
      "",
      markdownTable(
        ["start → end", "blocks", "not served", "min ms", "p50 ms", "p90 ms", "p99 ms", "max ms"],
        [
          [
            "head seen → served by /points/total/current",
            String(run.live.length),
            String(run.live.length - ms.length),
            formatNumber(Math.min(...ms)),
            formatNumber(quantile(ms, 0.5)),
            formatNumber(quantile(ms, 0.9)),
            formatNumber(quantile(ms, 0.99)),
            formatNumber(Math.max(...ms)),
          ],
        ],
      ),
      "",
      markdownTable(
        [
          "route",
          "replica",
          "bytes",
          "bare req/s",
          "bare CPU µs/req",
          "req/s",
          "× bare",
          "CPU µs/req",
          "CPU × bare",
        ],
        run.reads.flatMap((row) => [
          readCells(row, "engine running", { rps: row.rps, cpuUs: row.cpuUs }),
          ...(row.without ? [readCells(row, "POINTS_ENGINE=off", row.without)] : []),
        ]),
      ),
      "",
      ...targetsSection(run.kind, verdicts),
    );
  }
  return `${lines.join("\n")}\n`;
}

function readCells(row: ReadRow, replica: string, figures: { rps: number; cpuUs: number }): string[] {
  return [
    `GET ${row.route}`,
    replica,
    formatNumber(row.bodyBytes),
    formatNumber(row.bareRps),
    formatNumber(row.bareCpuUs),
    formatNumber(figures.rps),
    (figures.rps / row.bareRps).toFixed(2),
    formatNumber(figures.cpuUs),
    (row.bareCpuUs / figures.cpuUs).toFixed(2),
  ];
}

function log(message: string): void {
  process.stderr.write(`[bench points-live] ${message}\n`);
}

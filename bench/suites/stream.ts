// The stream suite (issue 14): on the devnet (`sluice serve` without a deployment, its bundled solvers filling, a
// block a second), what a pushed order event costs in time and memory. Every latency ends when the bench's client
// reads the event and starts at the order log's `recorded_at` of that change (taken by the committing transaction as
// it logs the change, just before its commit becomes visible), or, for a won order, at /order's 200.
// - fill → wallet: `?orderId=` streams on replica A (the devnet, whose indexer writes the Fill) and, on
//   PostgreSQL, on replica B (`sluice serve` on the devnet's deployment file and the same database);
// - won order → winning solver: B's solver streams with credentials (B is given the solvers' secrets; the devnet
//   keeps its own in memory), so PostgreSQL only, and across replicas;
// - held streams: N idle `?swapper=` streams on A (server RSS before and after), then one swap by a wallet that
//   1,000 more streams watch: each change's delivery to all of them;
// - held snapshots (stream-snapshots.ts): streams of a 30,000-order swapper whose clients never read (RSS), /quote
//   while more of them open, and one client reading the whole snapshot.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devAccount } from "../../src/devnet/accounts.ts";
import { BUNDLED_SOLVERS } from "../../src/devnet/deployment.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { type BenchDatabase, ownDatabase, pgliteDatabase } from "../lib/bench-databases.ts";
import { type Distribution, distribution } from "../lib/distribution.ts";
import { loadAverage } from "../lib/machine.ts";
import type { RunningProcess } from "../lib/processes.ts";
import { readServerMemory, readSettledServerMemory } from "../lib/server-memory.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { listenSse, type ReceivedEvent, type SseListener } from "../lib/sse-listener.ts";
import { machineLine, runConditions } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import {
  HELD_SNAPSHOTS,
  type HeldSnapshotsRun,
  measureHeldSnapshots,
  storeSwapperHistory,
} from "./stream-snapshots.ts";
import { submitSwap } from "./swap-fill-client.ts";
import { readEndpoints } from "./swap-fill-latency.ts";
import type { BenchSuite } from "./types.ts";

export const STREAM_BENCH = {
  swaps: 5,
  amount: "100",
  fanOutStreams: 1000,
  /** Streams opened at once while filling the idle set. */
  openBatch: 250,
  eventTimeoutMs: 60_000,
  /** File descriptors the bench process needs beyond its streams (modules, sockets to anvil and the API). */
  fdHeadroom: 512,
  targets: { wonToSolverMs: 50, fillToWalletMs: 250, idleRssMb: 200, fanOutMs: 100 },
} as const;

/** The servers' old-space limit: room for the devnet's own work and the idle streams' few KB each. */
const STREAM_SERVER_HEAP_MB = 512;

/** Latencies in ms; a stream or swap whose event did not come in time (or came only as a snapshot) is missed. */
type Latencies = Distribution;

interface StreamRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  fillToWalletA: Latencies;
  fillToWalletB: Latencies | null;
  wonToSolverB: Latencies | null;
  idle: { streams: number; rssBeforeMb: number; rssAfterMb: number; heapUsedDeltaMb: number };
  fanOut: { streams: number; newOrder: Latencies; fill: Latencies };
  heldSnapshots: HeldSnapshotsRun;
  loadAverage: number;
}

export const streamSuite: BenchSuite = {
  name: "stream",
  description:
    "order streams on the devnet: fill → wallet (one and two replicas), won order → solver, N idle streams' RSS, fan-out to 1,000",
  async run(options) {
    const needed = options.idleStreams + STREAM_BENCH.fanOutStreams + STREAM_BENCH.fdHeadroom;
    const limit = openFileLimit();
    if (limit < needed) {
      throw new Error(
        `ulimit -n is ${limit}: holding ${options.idleStreams} + ${STREAM_BENCH.fanOutStreams} streams needs at least ${needed} open files in the bench and in the server; raise it (\`ulimit -n ${needed}\` in this shell, or LimitNOFILE / nofile in limits.conf) or pass a smaller --streams`,
      );
    }
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const runs: StreamRun[] = [];
    for (const kind of options.databases) runs.push(await runOnDatabase(kind, options.idleStreams));
    const conditions = runConditions(startedAt, loadAtStart, loadAverage());
    const report = { suite: "stream", ...conditions, openFileLimit: limit, runs };
    return { text: formatReport(report, machineLine(conditions)), json: report };
  },
};

function openFileLimit(): number {
  const text = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
  return text === "unlimited" ? Number.POSITIVE_INFINITY : Number(text);
}

async function runOnDatabase(kind: BenchDatabaseKind, idleStreams: number): Promise<StreamRun> {
  const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-stream-"));
  const dataDir = join(scratch, "a");
  const database = kind === "postgres" ? ownDatabase(kind, "stream") : pgliteDatabase(dataDir);
  const servers: RunningProcess[] = [];
  const listeners: SseListener[] = [];
  const heldSnapshotStreams = HELD_SNAPSHOTS.held + HELD_SNAPSHOTS.perSecond * HELD_SNAPSHOTS.seconds + 1;
  const streamCap = String(idleStreams + STREAM_BENCH.fanOutStreams + heldSnapshotStreams + 100);
  const streamEnv = {
    STREAM_MAX_CONNECTIONS: streamCap,
    STREAM_MAX_PER_IP: streamCap,
    // A heap limit, as docs/operators.md ("Memory") tells an operator to give the server: without one V8 collects
    // the garbage of what unread streams wrote lazily, and the held snapshots' RSS says more about V8's pace than
    // about what the server keeps (test/orders/order-stream-memory.test.ts runs its server the same way).
    NODE_OPTIONS: `--max-old-space-size=${STREAM_SERVER_HEAP_MB}`,
  };
  try {
    await database.reset();
    // Stored before the devnet starts: it holds an embedded database alone.
    log(`${kind}: storing a swapper's ${HELD_SNAPSHOTS.orders} orders`);
    await storeSwapperHistory(await database.open());
    const databaseVersion = await database.version();
    const databaseEnv = kind === "postgres" ? database.serveEnv : { DATABASE_URL: "" };
    log(`${kind}: starting the devnet (replica A)`);
    const a = await startSluiceServer(
      { DEPLOYMENT: "", DEPLOYMENT_FILE: "", ...databaseEnv, DATA_DIR: dataDir, ...streamEnv },
      { logFile: join(scratch, "a.log") },
    );
    servers.push(a);
    const endpoints = await readEndpoints(dataDir);
    let b: { server: RunningProcess; secrets: Map<string, string> } | undefined;
    if (kind === "postgres") {
      log("postgres: starting replica B on the devnet's deployment file");
      const secrets = new Map(BUNDLED_SOLVERS.map((s) => [s.id, randomBytes(16).toString("hex")]));
      const server = await startSluiceServer(
        {
          ...databaseEnv,
          DEPLOYMENT: "",
          DEPLOYMENT_FILE: join(dataDir, "devnet", "deployment.json"),
          RPC_URLS: endpoints.rpcUrl,
          PROTOCOL_SIGNER_KEY: devAccount(1).privateKey,
          // Required off the devnet; the streams read here carry no URL.
          PUBLIC_URL: "http://127.0.0.1",
          DATA_DIR: join(scratch, "b"),
          ...streamEnv,
          ...Object.fromEntries(BUNDLED_SOLVERS.map((s) => [s.sharedSecretEnv, secrets.get(s.id)!])),
        },
        { logFile: join(scratch, "b.log") },
      );
      servers.push(server);
      b = { server, secrets };
    }

    // Won order → solver and fill → wallet, one swap at a time.
    const solverStreams = new Map<string, SseListener>();
    if (b) {
      for (const solver of BUNDLED_SOLVERS) {
        const listener = await listenSse(`${b.server.baseUrl}/orders/stream?solverId=${solver.id}`, {
          headers: { "x-solver-id": solver.id, "x-rfq-shared-secret": b.secrets.get(solver.id)! },
        });
        listeners.push(listener);
        solverStreams.set(solver.id, listener);
      }
    }
    const won: Array<number | undefined> = [];
    const fillsA: Array<ReceivedEvent | undefined> = [];
    const fillsB: Array<ReceivedEvent | undefined> = [];
    for (let index = 0; index < STREAM_BENCH.swaps; index++) {
      log(`${kind}: swap ${index + 1} of ${STREAM_BENCH.swaps}`);
      const swap = await submitSwap(endpoints, STREAM_BENCH.amount);
      const byOrder = (event: ReceivedEvent) => event.data.includes(swap.orderId);
      const solverStream = solverStreams.get(swap.solverId);
      const streamsByReplica = [a, ...(b ? [b.server] : [])].map((server) =>
        listenSse(`${server.baseUrl}/orders/stream?orderId=${swap.orderId}`),
      );
      const opened = await Promise.all(streamsByReplica);
      listeners.push(...opened);
      if (solverStream) {
        const event = await solverStream.first(byOrder, STREAM_BENCH.eventTimeoutMs);
        won.push(event ? event.receivedAt - swap.submittedAt : undefined);
        log(
          `${kind}: swap ${index + 1}: won order → ${swap.solverId}'s stream on B: ${event ? `${event.receivedAt - swap.submittedAt} ms` : "missed"}`,
        );
      }
      const fills = await Promise.all(opened.map((listener) => firstFill(listener)));
      fillsA.push(fills[0]);
      if (b) fillsB.push(fills[1]);
      for (const listener of opened) listener.close();
    }

    // Held streams: idle ones first, then 1,000 on one swapper and a swap of that swapper.
    log(`${kind}: opening ${idleStreams} idle streams`);
    // The devnet picks its internal listener's port itself and writes it beside the API's.
    const { internalApiUrl } = endpoints as typeof endpoints & { internalApiUrl: string };
    const metricsUrl = `${new URL(internalApiUrl).origin}/metrics`;
    const before = await readSettledServerMemory(metricsUrl);
    await openMany(
      idleStreams,
      () => `${a.baseUrl}/orders/stream?swapper=${randomAddress()}`,
      listeners,
      false,
    );
    await sleep(2000);
    const after = await readServerMemory(metricsUrl);
    if (!before || !after) throw new Error("the server's /metrics has no process memory figures");
    log(`${kind}: fanning one swapper's changes out to ${STREAM_BENCH.fanOutStreams} streams`);
    const swapper = privateKeyToAccount(generatePrivateKey());
    const watchers = await openMany(
      STREAM_BENCH.fanOutStreams,
      () => `${a.baseUrl}/orders/stream?swapper=${swapper.address}`,
      listeners,
      true,
    );
    const fanSwap = await submitSwap(endpoints, STREAM_BENCH.amount, swapper);
    const isNew = (event: ReceivedEvent) => event.event === "order" && event.data.includes(fanSwap.orderId);
    const newOrderEvents = await Promise.all(
      watchers.map((w) => w.first(isNew, STREAM_BENCH.eventTimeoutMs)),
    );
    const fanFills = await Promise.all(watchers.map((w) => firstFill(w)));
    const heldSnapshots = await measureHeldSnapshots(endpoints, a.child.pid!, (message) =>
      log(`${kind}: ${message}`),
    );
    log(`${kind}: done; reading the log's times`);

    for (const listener of listeners.splice(0)) listener.close();
    for (const server of servers.splice(0).reverse()) await server.stop();
    const recordedAt = await readRecordedAt(database, [...fillsA, ...fillsB, ...newOrderEvents, ...fanFills]);
    const sinceCommit = (events: Array<ReceivedEvent | undefined>) =>
      distribution(events.map((event) => (event ? event.receivedAt - recordedAt(event) : undefined)));
    return {
      kind,
      databaseVersion,
      fillToWalletA: sinceCommit(fillsA),
      fillToWalletB: b ? sinceCommit(fillsB) : null,
      wonToSolverB: b ? distribution(won) : null,
      idle: {
        streams: idleStreams,
        rssBeforeMb: before.rssMb,
        rssAfterMb: after.rssMb,
        heapUsedDeltaMb: after.heapUsedMb - before.heapUsedMb,
      },
      fanOut: {
        streams: STREAM_BENCH.fanOutStreams,
        newOrder: sinceCommit(newOrderEvents),
        fill: sinceCommit(fanFills),
      },
      heldSnapshots,
      loadAverage: loadAverage(),
    };
  } finally {
    for (const listener of listeners) listener.close();
    for (const server of servers.reverse()) await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The `order` event moving the stream's order to filled (a fill seen only in the snapshot counts as missed). */
function firstFill(listener: SseListener): Promise<ReceivedEvent | undefined> {
  return listener.first(
    (event) => event.event === "order" && event.data.includes('"orderStatus":"filled"'),
    STREAM_BENCH.eventTimeoutMs,
  );
}

async function openMany(
  count: number,
  url: () => string,
  into: SseListener[],
  keepEvents: boolean,
): Promise<SseListener[]> {
  const opened: SseListener[] = [];
  for (let start = 0; start < count; start += STREAM_BENCH.openBatch) {
    const batch = Math.min(STREAM_BENCH.openBatch, count - start);
    const listeners = await Promise.all(
      Array.from({ length: batch }, () => listenSse(url(), { keepEvents })),
    );
    into.push(...listeners);
    opened.push(...listeners);
  }
  return opened;
}

function randomAddress(): string {
  return `0x${randomBytes(20).toString("hex")}`;
}

/** Each event's `recorded_at` in the order log (epoch ms), read once the servers have stopped (PGlite's lock). */
async function readRecordedAt(
  database: BenchDatabase,
  events: Array<ReceivedEvent | undefined>,
): Promise<(event: ReceivedEvent) => number> {
  const ids = [...new Set(events.flatMap((event) => (event?.id ? [event.id] : [])))];
  const db = await database.open();
  try {
    const rows = await db.query<{ id: string; ms: string | number }>(
      `SELECT id::text AS id, extract(epoch FROM recorded_at) * 1000 AS ms FROM order_events WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, Number(row.ms)]));
    return (event) => {
      const ms = byId.get(event.id ?? "");
      if (ms === undefined) throw new Error(`event ${event.id} is not in the order log`);
      return ms;
    };
  } finally {
    await db.close();
  }
}

function formatReport(
  report: { startedAt: string; openFileLimit: number; runs: StreamRun[] },
  machine: string,
): string {
  const { targets } = STREAM_BENCH;
  const ms = (value: number) => (Number.isNaN(value) ? "–" : `${formatNumber(value, 1)} ms`);
  const row = (what: string, figures: Latencies | null, target: number): string[] =>
    figures
      ? [
          what,
          String(figures.samples),
          String(figures.missed),
          ms(figures.min),
          ms(figures.p50),
          ms(figures.p99),
          ms(figures.max),
          `≤ ${target} ms`,
          figures.missed === 0 && figures.p99 <= target ? "pass" : "fail",
        ]
      : [what, "–", "–", "–", "–", "–", "–", `≤ ${target} ms`, "not measured (see above)"];
  const sections = report.runs.map((run) => {
    const rss = run.idle.rssAfterMb - run.idle.rssBeforeMb;
    const table = markdownTable(
      ["measure", "samples", "missed", "min", "p50", "p99", "max", "target", "result"],
      [
        row(
          "won order → winning solver (/order 200 on A → solver stream on B)",
          run.wonToSolverB,
          targets.wonToSolverMs,
        ),
        row("fill → wallet, one replica (A)", run.fillToWalletA, targets.fillToWalletMs),
        row(
          "fill → wallet, across replicas (written on A, streamed by B)",
          run.fillToWalletB,
          targets.fillToWalletMs,
        ),
        row(
          `new order → ${run.fanOut.streams} streams of one swapper (A)`,
          run.fanOut.newOrder,
          targets.fanOutMs,
        ),
        row(`fill → ${run.fanOut.streams} streams of one swapper (A)`, run.fanOut.fill, targets.fanOutMs),
      ],
    );
    const held = run.heldSnapshots;
    const heldRss = held.rss.peakMb - held.rss.beforeMb;
    const heldLine = `Held snapshots: ${held.held} streams of a swapper with ${formatNumber(held.orders)} orders whose clients never read: server RSS ${formatNumber(held.rss.beforeMb)} → peak ${formatNumber(held.rss.peakMb)} MB (**+${formatNumber(heldRss)} MB**, ${formatNumber(held.rss.afterMb)} MB 3 s after; target < ${HELD_SNAPSHOTS.targets.heldRssMb} MB: ${heldRss < HELD_SNAPSHOTS.targets.heldRssMb ? "pass" : "fail"}). Then ${held.opening.asked} more asked for at ${HELD_SNAPSHOTS.perSecond} a second (${held.opening.answered200} answered 200) while /quote and /solvers were asked ${held.opening.requests} times: ${held.opening.non200} not 200 (target 0: ${held.opening.non200 === 0 ? "pass" : "fail"}), p50 ${formatNumber(held.opening.p50Ms, 1)} ms, p99 ${formatNumber(held.opening.p99Ms, 1)} ms. One client read the whole snapshot (${formatNumber(held.reader.snapshots)} events, ${formatNumber(held.reader.mb, 1)} MB) in ${formatNumber(held.reader.seconds, 1)} s.`;
    return [
      `##### ${run.databaseVersion}`,
      "",
      table,
      "",
      heldLine,
      "",
      `Held streams: ${formatNumber(run.idle.streams)} idle \`?swapper=\` streams on A: server RSS ${formatNumber(run.idle.rssBeforeMb)} → ${formatNumber(run.idle.rssAfterMb)} MB (**+${formatNumber(rss)} MB**, V8 heap used ${run.idle.heapUsedDeltaMb >= 0 ? "+" : ""}${formatNumber(run.idle.heapUsedDeltaMb)} MB); target < ${targets.idleRssMb} MB: ${rss < targets.idleRssMb ? "pass" : "fail"}. The ${run.fanOut.streams} fan-out streams were opened beside them. Load average at the end ${run.loadAverage}.`,
    ].join("\n");
  });
  return [
    `#### Stream benchmark: order streams on the devnet, ${report.startedAt}`,
    "",
    machine,
    "",
    `Open-file limit (\`ulimit -n\`): ${report.openFileLimit}. ${STREAM_BENCH.swaps} swaps of ${STREAM_BENCH.amount} tRWA by the devnet's bundled solvers, one at a time, then one swap watched by ${STREAM_BENCH.fanOutStreams} streams. Latencies end when the bench reads the event and start at the order log's \`recorded_at\` (stamped as the committing transaction logs the change, just before the commit is visible), or at /order's 200 for a won order. Replica B (PostgreSQL only) is a second \`sluice serve\` on the devnet's deployment file and the same database; the solver streams with credentials are B's, because the devnet keeps its solvers' secrets in memory. The bench, the server(s), anvil and PostgreSQL share the machine's cores.`,
    "",
    ...sections.flatMap((section) => [section, ""]),
  ].join("\n");
}

function log(message: string): void {
  process.stderr.write(`[bench stream] ${message}\n`);
}

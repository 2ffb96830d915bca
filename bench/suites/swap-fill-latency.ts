// The fill-latency suite (issue 25): from the fill's block being on the chain to the wallet's `filled` event on its
// order stream, on the devnet (`sluice serve` without a deployment, in its own process, a fresh data directory and
// database, anvil mining a block a second, the bundled solvers filling). A block is "on the chain" when a watcher
// subscribed to newHeads over WebSocket on anvil receives it (a watcher polling eth_blockNumber cross-checks it);
// the wallet funds itself once, then swaps one order at a time and reads `GET /orders/stream?orderId=` on each
// replica. Three configurations: the devnet as it is (heads over WebSocket), with a second replica on the same
// PostgreSQL database streaming the same orders, and heads polled every 250 ms without WebSocket. Targets judged
// on PostgreSQL; PGlite shown. See bench/README.md.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createPublicClient, http } from "viem";
import { devAccount } from "../../src/devnet/accounts.ts";
import { BUNDLED_SOLVERS } from "../../src/devnet/deployment.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { ownDatabase, pgliteDatabase } from "../lib/bench-databases.ts";
import { type HeadWatcher, pollHeads, watchHeadsOverWebSocket } from "../lib/head-watchers.ts";
import { loadAverage } from "../lib/machine.ts";
import type { RunningProcess } from "../lib/processes.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { listenSse, type ReceivedEvent, type SseListener } from "../lib/sse-listener.ts";
import { runConditions } from "../lib/suite-report.ts";
import { type DevnetEndpoints, devnetChain, fundWallet, submitOrder } from "./swap-fill-client.ts";
import {
  type FillLatencyReport,
  type FillLatencyRun,
  type FillSample,
  formatFillLatencyReport,
  type HeadsMode,
  judgeFillLatencyTargets,
} from "./swap-fill-report.ts";
import type { BenchSuite } from "./types.ts";

export const FILL_LATENCY = {
  fills: 20,
  amount: "100",
  /** The cross-checking watcher's eth_blockNumber interval. */
  pollWatcherMs: 20,
  /** A fill not streamed by then counts as missed. */
  fillTimeoutMs: 30_000,
} as const;

interface Configuration {
  heads: HeadsMode;
  /** The devnet's environment beyond the suite's. */
  env: Record<string, string>;
  /** A second replica streams the same orders (PostgreSQL only: PGlite is one process's database). */
  replica: boolean;
}

const CONFIGURATIONS: readonly Configuration[] = [
  { heads: "websocket", env: {}, replica: true },
  { heads: "polling", env: { RPC_WS_URL: "off", BLOCK_POLL_MS: "250" }, replica: false },
];

export const fillLatencySuite: BenchSuite = {
  name: "fill-latency",
  description:
    "on the devnet (1 s blocks): fill block seen over newHeads → the wallet's `filled` stream event; heads over WebSocket, a second replica, heads polled",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const runs: FillLatencyRun[] = [];
    for (const kind of options.databases) {
      for (const configuration of CONFIGURATIONS) runs.push(await measureRun(kind, configuration));
    }
    const report: FillLatencyReport = {
      suite: "fill-latency",
      ...runConditions(startedAt, loadAtStart, loadAverage()),
      fills: FILL_LATENCY.fills,
      amount: FILL_LATENCY.amount,
      pollWatcherMs: FILL_LATENCY.pollWatcherMs,
      runs,
    };
    return { text: formatFillLatencyReport(report), json: report };
  },
};

async function measureRun(kind: BenchDatabaseKind, configuration: Configuration): Promise<FillLatencyRun> {
  const loadAtStart = loadAverage();
  const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-fill-"));
  const dataDir = join(scratch, "a");
  const database = kind === "postgres" ? ownDatabase(kind, "fill") : pgliteDatabase(dataDir);
  const replica = configuration.replica && kind === "postgres";
  const servers: RunningProcess[] = [];
  const watchers: HeadWatcher[] = [];
  const label = `${kind}, heads ${configuration.heads === "websocket" ? "over WebSocket" : "polled"}`;
  try {
    // A fresh chain and a fresh database each run: the devnet deploys its contracts into them.
    await database.reset();
    const databaseEnv = kind === "postgres" ? database.serveEnv : { DATABASE_URL: "" };
    if (kind === "postgres") await (await database.open()).close();
    const databaseVersion = await database.version();
    log(`${label}: starting the devnet (replica A)`);
    const started = performance.now();
    const a = await startSluiceServer(
      { DEPLOYMENT: "", DEPLOYMENT_FILE: "", ...databaseEnv, DATA_DIR: dataDir, ...configuration.env },
      { logFile: join(scratch, "a.log") },
    );
    servers.push(a);
    const endpoints = await readEndpoints(dataDir);
    const startupSeconds = (performance.now() - started) / 1000;
    const webSocketUrl = endpoints.rpcUrl.replace(/^http/, "ws");
    if (replica) {
      log(`${label}: starting replica B on the devnet's deployment file and database`);
      servers.push(
        await startSluiceServer(
          {
            ...databaseEnv,
            ...devnetReplicaEnv(dataDir, endpoints, join(scratch, "b")),
            // B follows heads as A does (it never indexes while A holds the lease).
            ...(configuration.heads === "websocket" ? { RPC_WS_URL: webSocketUrl } : configuration.env),
          },
          { logFile: join(scratch, "b.log") },
        ),
      );
    }
    const heads = await watchHeadsOverWebSocket(webSocketUrl);
    watchers.push(heads);
    const polled = pollHeads(endpoints.rpcUrl, FILL_LATENCY.pollWatcherMs);
    watchers.push(polled);

    log(`${label}: funding the wallet`);
    const wallet = await fundWallet(endpoints);
    const fills: FillSample[] = [];
    for (let index = 0; index < FILL_LATENCY.fills; index++) {
      const swap = await submitOrder(endpoints, wallet, FILL_LATENCY.amount);
      const streams = await Promise.all(
        servers.map((server) => listenSse(`${server.baseUrl}/orders/stream?orderId=${swap.orderId}`)),
      );
      const filled = await Promise.all(streams.map((stream) => firstFill(stream)));
      for (const stream of streams) stream.close();
      const [onA, onB] = filled;
      const fillBlock = onA ? fillBlockOf(onA) : onB ? fillBlockOf(onB) : null;
      const sample: FillSample = {
        orderId: swap.orderId,
        solverId: swap.solverId,
        submittedAt: swap.submittedAt,
        fillBlock,
        blockTimestampMs: null,
        headSeenAt: fillBlock === null ? null : (heads.seenAt(BigInt(fillBlock)) ?? null),
        polledSeenAt: fillBlock === null ? null : (polled.seenAt(BigInt(fillBlock)) ?? null),
        filledOnA: onA?.receivedAt ?? null,
        filledOnB: onB?.receivedAt ?? null,
      };
      fills.push(sample);
      log(
        `${label}: fill ${index + 1} of ${FILL_LATENCY.fills} in block ${fillBlock ?? "–"}: head seen → filled on A ` +
          `${gap(sample.headSeenAt, sample.filledOnA)}${replica ? `, on B ${gap(sample.headSeenAt, sample.filledOnB)}` : ""}`,
      );
    }

    // The blocks' timestamps, read once the fills are done (nothing timed waits on them).
    const client = createPublicClient({ chain: devnetChain(endpoints), transport: http(endpoints.rpcUrl) });
    for (const fill of fills) {
      if (fill.fillBlock === null) continue;
      const block = await client.getBlock({ blockNumber: BigInt(fill.fillBlock) });
      fill.blockTimestampMs = Number(block.timestamp) * 1000;
    }
    const run: Omit<FillLatencyRun, "targets"> = {
      kind,
      databaseVersion,
      heads: configuration.heads,
      env: configuration.env,
      replica,
      startupSeconds,
      blockIntervalMs: heads.meanIntervalMs(),
      fills,
      loadAverage: { start: loadAtStart, end: loadAverage() },
    };
    return { ...run, targets: judgeFillLatencyTargets(run) };
  } finally {
    for (const watcher of watchers) watcher.stop();
    for (const server of servers.reverse()) await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The `order` event moving the stream's order to filled (a fill seen only in the snapshot counts as missed). */
function firstFill(stream: SseListener): Promise<ReceivedEvent | undefined> {
  return stream.first(
    (event) => event.event === "order" && event.data.includes('"orderStatus":"filled"'),
    FILL_LATENCY.fillTimeoutMs,
  );
}

function fillBlockOf(event: ReceivedEvent): number | null {
  const record = JSON.parse(event.data) as { fillBlockNumber?: number | null };
  return record.fillBlockNumber ?? null;
}

function gap(start: number | null, end: number | null): string {
  return start === null || end === null ? "missed" : `${end - start} ms`;
}

/**
 * What a second `sluice serve` on a running devnet needs besides its database: the devnet's deployment file and
 * chain, a signer key, a public URL (required off the devnet; it hands out none the bench follows), its own data
 * directory, and solver secrets of its own (it quotes for no one).
 */
export function devnetReplicaEnv(
  devnetDataDir: string,
  endpoints: DevnetEndpoints,
  ownDataDir: string,
): Record<string, string> {
  return {
    DEPLOYMENT: "",
    DEPLOYMENT_FILE: join(devnetDataDir, "devnet", "deployment.json"),
    RPC_URLS: endpoints.rpcUrl,
    PROTOCOL_SIGNER_KEY: devAccount(1).privateKey,
    PUBLIC_URL: "http://127.0.0.1",
    DATA_DIR: ownDataDir,
    ...Object.fromEntries(BUNDLED_SOLVERS.map((s) => [s.sharedSecretEnv, randomBytes(16).toString("hex")])),
  };
}

/** The devnet writes this run's endpoints just after it starts serving. */
export async function readEndpoints(dataDir: string): Promise<DevnetEndpoints> {
  const file = join(dataDir, "devnet", "endpoints.json");
  for (let attempt = 0; attempt < 200 && !existsSync(file); attempt++) await sleep(50);
  return JSON.parse(readFileSync(file, "utf8")) as DevnetEndpoints;
}

function log(message: string): void {
  process.stderr.write(`[bench fill-latency] ${message}\n`);
}

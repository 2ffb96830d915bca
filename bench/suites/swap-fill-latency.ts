// The fill-latency suite: on the devnet (`sluice serve` without a deployment, in its own process, a fresh data
// directory, anvil mining a block a second), a few swaps as examples/swap.ts makes them; for each, the fill's
// block (receipt → block: its timestamp, and when a watcher polling the RPC every 20 ms first saw it) and the
// moment GET /orders?orderId= first answers `filled` (polled every 50 ms). Target: filled in the API within 2 s
// of the fill block. On PostgreSQL and on PGlite. See bench/README.md.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createPublicClient, type Hex, http, type PublicClient } from "viem";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { loadAverage } from "../lib/machine.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { runConditions } from "../lib/suite-report.ts";
import { callApi, type DevnetEndpoints, devnetChain, submitSwap } from "./swap-fill-client.ts";
import {
  type FillLatencyReport,
  type FillLatencyRun,
  type FillMeasurement,
  formatFillLatencyReport,
  judgeFillLatencyTargets,
} from "./swap-fill-report.ts";
import type { BenchSuite } from "./types.ts";

export const FILL_LATENCY = {
  swaps: 5,
  amount: "100",
  orderPollMs: 50,
  blockPollMs: 20,
  /** An order not filled by then counts as not filled. */
  fillTimeoutMs: 60_000,
} as const;

export const fillLatencySuite: BenchSuite = {
  name: "fill-latency",
  description:
    "on the devnet (1 s blocks): delay from a swap's fill block to GET /orders reporting it filled",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const runs: FillLatencyRun[] = [];
    for (const kind of options.databases) runs.push(await runOnDatabase(kind));
    const report: FillLatencyReport = {
      suite: "fill-latency",
      ...runConditions(startedAt, loadAtStart, loadAverage()),
      swaps: FILL_LATENCY.swaps,
      amount: FILL_LATENCY.amount,
      orderPollMs: FILL_LATENCY.orderPollMs,
      blockPollMs: FILL_LATENCY.blockPollMs,
      runs,
    };
    return { text: formatFillLatencyReport(report), json: report };
  },
};

async function runOnDatabase(kind: BenchDatabaseKind): Promise<FillLatencyRun> {
  const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-fill-"));
  const database = ownDatabase(kind, "fill");
  const dataDir = join(scratch, "data");
  try {
    // A fresh chain and a fresh database each run: the devnet deploys its contracts into them.
    await database.reset();
    const databaseEnv = kind === "postgres" ? database.serveEnv : { DATABASE_URL: "", DATA_DIR: dataDir };
    if (kind === "postgres") await (await database.open()).close();
    const version = await database.version();
    log(`${kind}: starting the devnet (sluice serve, DATA_DIR ${dataDir})`);
    const started = performance.now();
    const sluice = await startSluiceServer(
      {
        DEPLOYMENT: "",
        DEPLOYMENT_FILE: "",
        ...databaseEnv,
        DATA_DIR: dataDir,
      },
      { logFile: join(scratch, "server.log") },
    );
    try {
      const endpoints = await readEndpoints(dataDir);
      const startupSeconds = (performance.now() - started) / 1000;
      const client = createPublicClient({
        chain: devnetChain(endpoints),
        transport: http(endpoints.rpcUrl),
        cacheTime: 0,
      });
      const watcher = watchBlocks(client);
      try {
        const swaps: FillMeasurement[] = [];
        for (let index = 0; index < FILL_LATENCY.swaps; index++) {
          log(`${kind}: swap ${index + 1} of ${FILL_LATENCY.swaps}`);
          swaps.push(await measureSwap(endpoints, client, watcher));
        }
        const run: Omit<FillLatencyRun, "targets"> = {
          kind,
          databaseVersion: version,
          startupSeconds,
          blockIntervalMs: watcher.meanIntervalMs(),
          swaps,
          loadAverage: loadAverage(),
        };
        return { ...run, targets: judgeFillLatencyTargets(run) };
      } finally {
        watcher.stop();
      }
    } finally {
      await sluice.stop();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The devnet writes this run's endpoints just after it starts serving. */
export async function readEndpoints(dataDir: string): Promise<DevnetEndpoints> {
  const file = join(dataDir, "devnet", "endpoints.json");
  for (let attempt = 0; attempt < 200 && !existsSync(file); attempt++) await sleep(50);
  return JSON.parse(readFileSync(file, "utf8")) as DevnetEndpoints;
}

interface BlockWatcher {
  /** Epoch ms when the watcher first saw `number` as the latest block. */
  seenAt(number: bigint): number | undefined;
  meanIntervalMs(): number;
  stop(): void;
}

/** Polls the latest block; records when each new block was first seen. */
function watchBlocks(client: PublicClient): BlockWatcher {
  const seen = new Map<bigint, number>();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      try {
        const block = await client.getBlock({ blockTag: "latest" });
        if (!seen.has(block.number)) seen.set(block.number, Date.now());
      } catch {
        // the chain is going away, or a slow moment: try again
      }
      await sleep(FILL_LATENCY.blockPollMs);
    }
  })();
  return {
    seenAt: (number) => seen.get(number),
    meanIntervalMs() {
      const times = [...seen.values()].sort((a, b) => a - b);
      if (times.length < 2) return Number.NaN;
      return (times.at(-1)! - times[0]!) / (times.length - 1);
    },
    stop() {
      stopped = true;
    },
  };
}

async function measureSwap(
  endpoints: DevnetEndpoints,
  client: PublicClient,
  watcher: BlockWatcher,
): Promise<FillMeasurement> {
  const submitted = await submitSwap(endpoints, FILL_LATENCY.amount);
  const deadline = Date.now() + FILL_LATENCY.fillTimeoutMs;
  let status = "open";
  let txHash: Hex | null = null;
  let reportedAt = Number.NaN;
  while (Date.now() < deadline) {
    const listed = await callApi<{ orders: Array<{ orderStatus: string; txHash: Hex | null }> }>(
      endpoints.apiUrl,
      `/orders?orderId=${submitted.orderId}`,
    );
    const order = listed.orders[0];
    if (order && order.orderStatus !== "open") {
      reportedAt = Date.now();
      status = order.orderStatus;
      txHash = order.txHash;
      break;
    }
    await sleep(FILL_LATENCY.orderPollMs);
  }
  if (status !== "filled" || !txHash) {
    return {
      ...submitted,
      status,
      txHash,
      fillBlock: null,
      blockTimestampMs: null,
      blockSeenAt: null,
      reportedAt,
    };
  }
  const receipt = await client.getTransactionReceipt({ hash: txHash });
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  return {
    ...submitted,
    status,
    txHash,
    fillBlock: Number(receipt.blockNumber),
    blockTimestampMs: Number(block.timestamp) * 1000,
    blockSeenAt: watcher.seenAt(receipt.blockNumber) ?? null,
    reportedAt,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench fill-latency] ${message}\n`);
}

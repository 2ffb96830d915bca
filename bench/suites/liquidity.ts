// The liquidity suite: POST /liquidity-batch with 20 input tokens and 8 configured solvers on a fixture built for
// the bench (liquidity-fixture.ts), `sluice serve` in its own process on a deployment file, the per-block cache
// warmed by one request first and no block mined while loading; beside the bare Fastify route in the same run,
// on PostgreSQL and PGlite. See bench/README.md.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { loadAverage } from "../lib/machine.ts";
import { meanRequestsPerSecond, measureLoad } from "../lib/measured-load.ts";
import { openBackendProbe } from "../lib/pg-backends.ts";
import { type RunningProcess, startBare } from "../lib/processes.ts";
import { writeDeployment } from "../lib/sluice-deployment.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import { runConditions } from "../lib/suite-report.ts";
import {
  type LiquidityFixture,
  liquidityDeploymentInput,
  startLiquidityFixture,
} from "./liquidity-fixture.ts";
import {
  type DeploylessCheck,
  formatLiquidityReport,
  judgeLiquidityTargets,
  type LiquidityDatabaseRun,
  type LiquidityReport,
  type LiquidityRouteMeasurement,
  type LiquidityRouteRole,
} from "./liquidity-report.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const WARMUP_SECONDS = 2;

export const liquiditySuite: BenchSuite = {
  name: "liquidity",
  description:
    "POST /liquidity-batch with 20 input tokens and 8 solvers, warm per-block cache, against bare Fastify",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-liquidity-"));
    let fixture: LiquidityFixture | undefined;
    let bare: RunningProcess | undefined;
    try {
      const fixtureStarted = performance.now();
      fixture = await startLiquidityFixture(log);
      const fixtureSeconds = Math.round((performance.now() - fixtureStarted) / 1000);
      bare = await startBare();
      const runs: LiquidityDatabaseRun[] = [];
      for (const kind of options.databases) {
        runs.push(await runOnDatabase(kind, options, fixture, bare, scratch));
      }
      const deployless = await deploylessCheck(options.databases[0]!, fixture, scratch);
      const report: LiquidityReport = {
        suite: "liquidity",
        ...runConditions(startedAt, loadAtStart, loadAverage()),
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: WARMUP_SECONDS,
        fixture: {
          inputTokens: fixture.inputTokens.length,
          solvers: fixture.executors.length,
          adapters: fixture.adapters.map(({ label, asset, authorized }) => ({ label, asset, authorized })),
          transactions: fixture.transactions,
          blockNumber: fixture.blockNumber,
          buildSeconds: fixtureSeconds,
        },
        runs,
        deployless,
      };
      return { text: formatLiquidityReport(report), json: report };
    } finally {
      await bare?.stop();
      await fixture?.chain.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

interface PostCheck {
  status: number;
  milliseconds: number;
  bytes: number;
  body: unknown;
}

async function post(url: string, body: string): Promise<PostCheck> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    milliseconds: performance.now() - started,
    bytes: Buffer.byteLength(text),
    body: JSON.parse(text),
  };
}

async function runOnDatabase(
  kind: BenchDatabaseKind,
  options: SuiteOptions,
  fixture: LiquidityFixture,
  bare: RunningProcess,
  scratch: string,
): Promise<LiquidityDatabaseRun> {
  const database = ownDatabase(kind, "liquidity");
  await database.reset();
  await (await database.open()).close();
  const version = await database.version();
  const { chain } = fixture;
  const deployment = writeDeployment(scratch, liquidityDeploymentInput(fixture, { multicall: true }), {
    chain,
  });
  log(`${kind}: starting sluice serve on ${database.location}`);
  const sluice = await serveDeployment(database, deployment, join(scratch, `server-${kind}.log`));
  const serverPid = sluice.child.pid!;
  const backends = kind === "postgres" ? await openBackendProbe(database.serveEnv.DATABASE_URL!) : undefined;
  try {
    const batchBody = JSON.stringify({ tokensIn: fixture.inputTokens.map((token) => token.address) });
    const singleBody = JSON.stringify({ tokenIn: fixture.inputTokens[0]!.address });
    const batchUrl = `${sluice.baseUrl}/liquidity-batch`;
    const singleUrl = `${sluice.baseUrl}/liquidity`;
    const headBefore = Number(await chain.publicClient.getBlockNumber());
    // The first request reads the adapters (one multicall per token) and fills the per-block cache.
    const cold = await post(batchUrl, batchBody);
    const warm = await post(batchUrl, batchBody);
    checkBatch(cold, fixture);
    checkBatch(warm, fixture);
    const single = await post(singleUrl, singleBody);
    if (single.status !== 200) throw new Error(`/liquidity answered ${single.status}`);

    const measure = async (
      role: LiquidityRouteRole,
      label: string,
      url: string,
      pid: number,
      body: string | undefined,
      bodyBytes: number,
    ): Promise<LiquidityRouteMeasurement> => {
      log(`${kind}: ${label} (${options.connections} connections, ${options.durationSeconds} s)`);
      const { result, use } = await measureLoad(
        { url, method: body === undefined ? "GET" : "POST", body, connections: options.connections },
        {
          warmupSeconds: WARMUP_SECONDS,
          durationSeconds: options.durationSeconds,
          pid,
          backends: pid === serverPid ? backends : undefined,
        },
      );
      return { ...result, role, label, bodyBytes, ...use };
    };
    const bareUrl = `${bare.baseUrl}/bare`;
    const runBare = () => measure("bare", "bare Fastify /bare", bareUrl, bare.child.pid!, undefined, 38);
    const measured: LiquidityRouteMeasurement[] = [await runBare()];
    measured.push(
      await measure(
        "batch",
        `POST /liquidity-batch (${fixture.inputTokens.length} tokens)`,
        batchUrl,
        serverPid,
        batchBody,
        warm.bytes,
      ),
    );
    measured.push(
      await measure("single", "POST /liquidity (1 token)", singleUrl, serverPid, singleBody, single.bytes),
    );
    measured.push(await runBare());
    const headAfter = Number(await chain.publicClient.getBlockNumber());

    const bareRequestsPerSecond = meanRequestsPerSecond(measured.filter((row) => row.role === "bare"));
    for (const row of measured) {
      if (row.role !== "bare") row.ratioToBare = row.requestsPerSecond / bareRequestsPerSecond;
    }
    const snapshots = (warm.body as { tokensIn: Array<{ solvers: unknown[] }> }).tokensIn;
    const run: Omit<LiquidityDatabaseRun, "targets"> = {
      kind,
      databaseVersion: version,
      coldMs: cold.milliseconds,
      warmMs: warm.milliseconds,
      solversPerToken: {
        min: Math.min(...snapshots.map((s) => s.solvers.length)),
        max: Math.max(...snapshots.map((s) => s.solvers.length)),
      },
      head: { before: headBefore, after: headAfter },
      bareRequestsPerSecond,
      routes: measured,
    };
    return { ...run, targets: judgeLiquidityTargets(run) };
  } finally {
    await backends?.close();
    await sluice.stop();
  }
}

/**
 * The same request on the devnet's way of reading (no `multicall` in the deployment: viem's deployless multicall,
 * whose contract-creation eth_call carries every read of a token), once, to show whether that still works at this
 * size. Measured, not assumed: the report states what it answered.
 */
async function deploylessCheck(
  kind: BenchDatabaseKind,
  fixture: LiquidityFixture,
  scratch: string,
): Promise<DeploylessCheck> {
  const directory = join(scratch, "deployless");
  mkdirSync(directory);
  const database = ownDatabase(kind, "liquidity");
  const { chain } = fixture;
  const deployment = writeDeployment(directory, liquidityDeploymentInput(fixture, { multicall: false }), {
    chain,
  });
  log(`${kind}: the same request without a Multicall3 (deployless reads, as on the devnet)`);
  const sluice = await serveDeployment(database, deployment, join(directory, "server.log"));
  try {
    const body = JSON.stringify({ tokensIn: fixture.inputTokens.map((token) => token.address) });
    const answer = await post(`${sluice.baseUrl}/liquidity-batch`, body);
    const snapshots = (answer.body as { tokensIn?: Array<{ totalLiquidity: string }> }).tokensIn ?? [];
    return {
      kind,
      status: answer.status,
      milliseconds: answer.milliseconds,
      tokens: snapshots.length,
      tokensWithLiquidity: snapshots.filter((snapshot) => BigInt(snapshot.totalLiquidity) > 0n).length,
    };
  } finally {
    await sluice.stop();
  }
}

/** 200, one snapshot per token in order, and liquidity from some solver for each. */
function checkBatch(answer: PostCheck, fixture: LiquidityFixture): void {
  const snapshots =
    (answer.body as { tokensIn?: Array<{ tokenIn: string; solvers: unknown[] }> }).tokensIn ?? [];
  const inOrder = snapshots.every(
    (snapshot, index) => snapshot.tokenIn === fixture.inputTokens[index]!.address.toLowerCase(),
  );
  const covered = snapshots.every((snapshot) => snapshot.solvers.length > 0);
  if (answer.status !== 200 || snapshots.length !== fixture.inputTokens.length || !inOrder || !covered) {
    throw new Error(
      `/liquidity-batch answered ${answer.status} with ${snapshots.length} snapshots (in order: ${inOrder}, ` +
        `each with solvers: ${covered}): ${JSON.stringify(answer.body).slice(0, 400)}`,
    );
  }
}

function log(message: string): void {
  process.stderr.write(`[bench liquidity] ${message}\n`);
}

// The swap suite: POST /quote's overhead over its slowest solver. Six solver servers (their own process) answer
// every auction after injected delays of 5–50 ms; `sluice serve` (its own process) runs a real deployment file
// on an anvil without block time; a closed-loop client sends /quote at 2 connections and subtracts the slowest
// injected delay (50 ms) from every request's latency. The bare Fastify route is measured in the same run, on
// PostgreSQL and on PGlite. See bench/README.md.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { BENCH_ACCOUNT_INDEX, type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { quantile, runClosedLoop } from "../lib/closed-loop.ts";
import { processCpuMs } from "../lib/cpu.ts";
import type { AnswerRecord, SolversReady } from "../lib/delayed-solvers.ts";
import { fetchBody } from "../lib/http.ts";
import { type LoadResult, runLoad } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import { type RunningProcess, sampleRss, startBare } from "../lib/processes.ts";
import { type ScriptProcess, startScript } from "../lib/script-process.ts";
import { type WrittenDeployment, writeDeployment } from "../lib/sluice-deployment.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import { SLOWEST_DELAY_MS, SOLVER_DELAYS_MS } from "../lib/solver-delays.ts";
import { runConditions } from "../lib/suite-report.ts";
import { decomposeQuote } from "./swap-decomposition.ts";
import { formatSwapReport, judgeSwapTargets, type SwapDatabaseRun, type SwapReport } from "./swap-report.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

export const SWAP_SOLVER_COUNT = SOLVER_DELAYS_MS.length;
/** 100 tRWA: far above the minimum, far below the adapters' capacity. */
const QUOTE_AMOUNT = 100n * 10n ** 18n;
const WARMUP_SECONDS = 2;

export const swapSuite: BenchSuite = {
  name: "swap",
  description:
    "POST /quote at 2 connections with 6 solver servers answering after 5–50 ms: overhead over the slowest answer",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-swap-"));
    let chain: BenchChain | undefined;
    let solvers: ScriptProcess<SolversReady> | undefined;
    let bare: RunningProcess | undefined;
    try {
      log(`starting anvil and deploying the core contracts with ${SWAP_SOLVER_COUNT} Executors`);
      chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
      const fixture = await startFixture(chain, scratch);
      solvers = fixture.solvers;
      bare = await startBare();
      const runs: SwapDatabaseRun[] = [];
      for (const kind of options.databases) {
        runs.push(await runOnDatabase(kind, options, { ...fixture, body: quoteBody(chain) }, bare, scratch));
      }
      const report: SwapReport = {
        suite: "swap",
        ...runConditions(startedAt, loadAtStart, loadAverage()),
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: WARMUP_SECONDS,
        solverDelaysMs: [...SOLVER_DELAYS_MS],
        quoteAmount: QUOTE_AMOUNT.toString(),
        chain: { blockNumber: Number(await chain.publicClient.getBlockNumber()), adapters: 2 },
        runs,
      };
      return { text: formatSwapReport(report), json: report };
    } finally {
      await bare?.stop();
      await solvers?.stop();
      await chain?.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

export interface SwapFixture {
  deployment: WrittenDeployment;
  solvers: ScriptProcess<SolversReady>;
  /** Each solver's shared secret, by id. */
  secrets: ReadonlyMap<string, string>;
}

/** The solver process and the deployment file naming its servers, each solver with its own Executor. */
/**
 * `solverSlots`: each solver's cap of requests in flight (the deployment's default when absent), raised by a run
 * that loads /quote with more connections than the default lets through. `leanSolvers`: the solver servers on their
 * lean transport (delayed-solvers.ts).
 */
export async function startFixture(
  chain: BenchChain,
  scratch: string,
  options: { solverSlots?: number; leanSolvers?: boolean } = {},
): Promise<SwapFixture> {
  const core = chain.core!;
  const ids = Array.from({ length: SWAP_SOLVER_COUNT }, (_, index) => `bench_solver${index + 1}`);
  // The solver servers learn their secrets before Sluice learns their endpoints.
  const secrets = new Map(ids.map((id) => [id, randomBytes(16).toString("hex")]));
  const solvers = await startScript<SolversReady>("bench/lib/delayed-solvers.ts", {
    readyMessage: "solvers listening",
    env: {
      BENCH_SOLVERS: JSON.stringify(
        ids.map((id, index) => ({ id, filler: core.executors[index], secret: secrets.get(id) })),
      ),
      ...(options.leanSolvers ? { BENCH_SOLVERS_LEAN: "1" } : {}),
    },
  });
  try {
    const deployment = writeDeployment(
      scratch,
      deploymentInput(
        chain,
        solvers.ready.solvers.map((solver, index) => ({
          id: solver.id,
          endpoint: solver.url,
          filler: core.executors[index]!,
          // Half internal, half external: both kinds are asked the same way for direct legs.
          internal: index % 2 === 0,
          ...(options.solverSlots === undefined ? {} : { maxConcurrentRequests: options.solverSlots }),
        })),
      ),
      { chain, secrets },
    );
    return { deployment, solvers, secrets };
  } catch (error) {
    await solvers.stop();
    throw error;
  }
}

function deploymentInput(chain: BenchChain, solvers: Parameters<typeof writeDeployment>[1]["solvers"]) {
  const core = chain.core!;
  return {
    name: "bench-swap",
    chainId: chain.chainId,
    chainName: "anvil (bench, no block time)",
    local: true,
    reactor: core.reactor,
    executors: core.executors,
    adapterFactory: core.adapterFactory,
    protocolSigner: core.protocolSigner,
    inputTokens: [
      {
        address: core.tokens.rwa,
        symbol: "tRWA",
        name: "Sluice Test RWA",
        decimals: 18,
        minQuoteAmount: (10n ** 12n).toString(),
        liquidityOutputToken: core.tokens.usd,
      },
    ],
    outputTokens: [
      { address: core.tokens.usd, symbol: "tUSD", name: "Sluice Test USD", decimals: 6 },
      { address: core.tokens.usdt, symbol: "tUSDT", name: "Sluice Test Tether USD", decimals: 6 },
    ],
    adapters: [{ address: core.adapters.usd }, { address: core.adapters.usdt }],
    solvers,
    confirmationDepth: 0,
    startBlock: Number(core.startBlock),
  };
}

export function quoteBody(chain: BenchChain): string {
  const core = chain.core!;
  return JSON.stringify({
    tokenInChainId: chain.chainId,
    tokenOutChainId: chain.chainId,
    tokenIn: core.tokens.rwa,
    tokenOut: core.tokens.usd,
    type: "EXACT_INPUT",
    amount: QUOTE_AMOUNT.toString(),
    // A dev account that never signs here: /quote only names the swapper.
    swapper: chain.account(BENCH_ACCOUNT_INDEX.swapper).address,
    outputs: [{ token: core.tokens.usd }],
  });
}

async function runOnDatabase(
  kind: BenchDatabaseKind,
  options: SuiteOptions,
  fixture: SwapFixture & { body: string },
  bare: RunningProcess,
  scratch: string,
): Promise<SwapDatabaseRun> {
  const { deployment, solvers, body } = fixture;
  const database = ownDatabase(kind, "swap");
  await database.reset();
  // Created (and migrated) empty: the server's first start binds it to this chain.
  await (await database.open()).close();
  const version = await database.version();
  log(`${kind}: starting sluice serve on ${database.location}`);
  const sluice = await serveDeployment(database, deployment, join(scratch, `server-${kind}.log`));
  try {
    const quoteUrl = `${sluice.baseUrl}/quote`;
    const check = await postJson(quoteUrl, body);
    const quotes = (check.body as { quotes?: unknown[] }).quotes?.length ?? 0;
    if (check.status !== 200 || quotes !== SWAP_SOLVER_COUNT) {
      throw new Error(
        `/quote answered ${check.status} with ${quotes} quotes (want ${SWAP_SOLVER_COUNT}): ${JSON.stringify(check.body).slice(0, 400)}`,
      );
    }
    const bareBefore = await measureBare(kind, bare, options);

    log(
      `${kind}: /quote (${options.connections} connections, ${WARMUP_SECONDS} s warm-up, ${options.durationSeconds} s)`,
    );
    await runClosedLoop({
      url: quoteUrl,
      method: "POST",
      body: body,
      connections: options.connections,
      durationSeconds: WARMUP_SECONDS,
    });
    await resetSolverStats(solvers);
    const loadAverageAtStart = loadAverage();
    const serverPid = sluice.child.pid!;
    const rss = sampleRss(serverPid);
    const serverCpuBefore = processCpuMs(serverPid);
    const result = await runClosedLoop({
      url: quoteUrl,
      method: "POST",
      body: body,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      inspect: (status, body) => {
        if (status !== 200) return undefined;
        const answer = JSON.parse(body.toString("utf8")) as { requestId: string; quotes: unknown[] };
        return { requestId: answer.requestId, quotes: answer.quotes.length };
      },
    });
    const serverCpuMs = processCpuMs(serverPid) - serverCpuBefore;
    const memory = rss.stop();
    const answers = await solverStats(solvers);
    const bareAfter = await measureBare(kind, bare, options);
    await sluice.stop();
    // Sluice's own record of each auction (how long each solver took as it saw it), read once the server is
    // gone (PGlite lives in its process).
    const sluiceSlowest = await slowestRecordedAnswers(kind);
    log(`${kind}: timing the round's storage and the discount lookup alone`);
    const decomposition = await decomposeQuote(kind, deployment.deployment.inputTokens[0]!.address);

    const ok = result.requests.filter((r) => r.status === 200 && r.tag?.quotes === SWAP_SOLVER_COUNT);
    const solverSlowest = new Map<string, number>();
    for (const answer of answers) {
      solverSlowest.set(
        answer.requestId,
        Math.max(solverSlowest.get(answer.requestId) ?? 0, answer.answeredMs),
      );
    }
    const latencies = ok.map((r) => r.latencyMs);
    const overInjected = latencies.map((latency) => latency - SLOWEST_DELAY_MS);
    const overSolverAnswer = ok.flatMap((r) => {
      const slowest = solverSlowest.get(r.tag!.requestId);
      return slowest === undefined ? [] : [r.latencyMs - slowest];
    });
    const overRecorded = ok.flatMap((r) => {
      const slowest = sluiceSlowest.get(r.tag!.requestId);
      return slowest === undefined ? [] : [r.latencyMs - slowest];
    });
    const recordedOverInjected = ok.flatMap((r) => {
      const slowest = sluiceSlowest.get(r.tag!.requestId);
      return slowest === undefined ? [] : [slowest - SLOWEST_DELAY_MS];
    });
    const figures = (values: number[]) => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) });
    const run: Omit<SwapDatabaseRun, "targets"> = {
      kind,
      decomposition,
      databaseVersion: version,
      bare: { before: bareBefore, after: bareAfter },
      bareRequestsPerSecond: (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2,
      quote: {
        requests: result.requests.length,
        complete: ok.length,
        failed: result.requests.length - ok.length + result.errors,
        requestsPerSecond: result.requestsPerSecond,
        latencyMs: figures(latencies),
        overInjectedMs: figures(overInjected),
        overSolverAnswerMs: figures(overSolverAnswer),
        overRecordedMs: figures(overRecorded),
        recordedOverInjectedMs: figures(recordedOverInjected),
        matchedSolverAnswers: overSolverAnswer.length,
        matchedRecorded: overRecorded.length,
        serverCpuMicrosPerRequest: ok.length > 0 ? (serverCpuMs * 1000) / result.requests.length : 0,
        rssStartMb: memory.startMb,
        rssPeakMb: memory.peakMb,
        loadAverage: loadAverageAtStart,
      },
    };
    return { ...run, targets: judgeSwapTargets(run) };
  } finally {
    await sluice.stop();
  }
}

async function measureBare(
  kind: BenchDatabaseKind,
  bare: RunningProcess,
  options: SuiteOptions,
): Promise<LoadResult & { loadAverage: number }> {
  const url = `${bare.baseUrl}/bare`;
  log(`${kind}: bare Fastify /bare (${options.connections} connections, ${options.durationSeconds} s)`);
  await runLoad({ url, connections: options.connections, durationSeconds: WARMUP_SECONDS });
  const loadAverageAtStart = loadAverage();
  const result = await runLoad({
    url,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  });
  return { ...result, loadAverage: loadAverageAtStart };
}

async function postJson(url: string, body: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, body: await response.json() };
}

async function resetSolverStats(solvers: ScriptProcess<SolversReady>): Promise<void> {
  const first = solvers.ready.solvers[0]!;
  await fetch(`${first.url}/stats/reset`, { method: "POST" });
}

/** Every answer the solver process gave since the reset (all its servers share one record). */
async function solverStats(solvers: ScriptProcess<SolversReady>): Promise<AnswerRecord[]> {
  const first = solvers.ready.solvers[0]!;
  const fetched = await fetchBody(`${first.url}/stats`);
  return (JSON.parse(fetched.body.toString("utf8")) as { answers: AnswerRecord[] }).answers;
}

/** The slowest solver latency Sluice recorded for each /quote auction, by request id. */
async function slowestRecordedAnswers(kind: BenchDatabaseKind): Promise<Map<string, number>> {
  const database = await ownDatabase(kind, "swap").openUnmigrated();
  try {
    const rows = await database.query<{ request_id: string; slowest: number | string }>(
      "select request_id, max(latency_ms) as slowest from solver_answers where round = 'quote' group by request_id",
    );
    return new Map(rows.map((row) => [row.request_id, Number(row.slowest)]));
  } finally {
    await database.close();
  }
}

function log(message: string): void {
  process.stderr.write(`[bench swap] ${message}\n`);
}

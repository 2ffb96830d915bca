// The solvers suite (issue 15): GET /api/v1/solvers over 1,000,000 answers and 100,000 orders spanning 8 days
// (SQL-generated, aggregates built by migration 0008's backfill) beside the bare Fastify route in the same run; its
// latency while /quote writes answers (six delayed solver servers, as the swap suite's); /quote's throughput at
// saturation; and the round writer's statement timed alone with and without what it adds to the aggregates. See
// bench/README.md.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../src/db/client.ts";
import { answerFact, answersWrite } from "../../src/rounds/store.ts";
import { answerStatsWrites } from "../../src/scorecards/answer-stats.ts";
import { type QuoteRound, quoteRoundsWrite } from "../../src/swap/quote-round-statement.ts";
import { generateSolversDataset, type SolversDatasetFacts } from "../dataset/solvers-dataset.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { quantile, runClosedLoop } from "../lib/closed-loop.ts";
import type { SolversReady } from "../lib/delayed-solvers.ts";
import { fetchBody } from "../lib/http.ts";
import type { LoadResult } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import { meanRequestsPerSecond, measureLoad } from "../lib/measured-load.ts";
import { type RunningProcess, startBare } from "../lib/processes.ts";
import type { ScriptProcess } from "../lib/script-process.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import {
  machineLine,
  ms,
  type RunConditions,
  runConditions,
  targetsSection,
  type Verdict,
} from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import { quoteBody, SWAP_SOLVER_COUNT, type SwapFixture, startFixture } from "./swap.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const WARMUP_SECONDS = 2;
/** Connections that saturate /quote on the 2-core machine (each waits ~50 ms for its slowest solver). */
const SATURATION_CONNECTIONS = 16;
/** Timed calls of each statement variant, in blocks whose p99s give the judged p99 (their median). */
const STATEMENT_CALLS = 20_000;
const STATEMENT_BLOCK = 1000;
/** Rounds per statement timed: one, and what the round writer's 20 ms window holds at saturation. */
const STATEMENT_ROUNDS = [1, 6];

interface RouteFigures extends LoadResult {
  label: string;
}

interface StatementTiming {
  calls: number;
  p50Ms: number;
  /** The median of the p99s of consecutive blocks of STATEMENT_BLOCK calls. */
  p99Ms: number;
  /** The p99 over every call: one burst of slow commits (a checkpoint) moves it, whichever variant ran then. */
  overallP99Ms: number;
}

interface StatementRun {
  rounds: number;
  answers: number;
  entries: number;
  withAggregates: StatementTiming;
  withoutAggregates: StatementTiming;
}

interface SolversDatabaseRun {
  kind: BenchDatabaseKind;
  scale: number;
  dataset: SolversDatasetFacts;
  routes: RouteFigures[];
  bareRequestsPerSecond: number;
  ratioToBare: number;
  underQuoteLoad: {
    solversP50Ms: number;
    solversP99Ms: number;
    solversRequests: number;
    quoteRequestsPerSecond: number;
  };
  quoteSaturation: { connections: number; requestsPerSecond: number; p50Ms: number; p99Ms: number };
  statements: StatementRun[];
  targets: Verdict[];
}

interface SolversReport extends RunConditions {
  suite: "solvers";
  connections: number;
  durationSeconds: number;
  runs: SolversDatabaseRun[];
}

export const solversSuite: BenchSuite = {
  name: "solvers",
  description:
    "GET /solvers over 1,000,000 answers and 100,000 orders vs bare Fastify, its p99 while /quote writes, and the " +
    "round statement with vs without the scorecard aggregates",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-solvers-"));
    let chain: BenchChain | undefined;
    let solvers: ScriptProcess<SolversReady> | undefined;
    let bare: RunningProcess | undefined;
    try {
      log(`starting anvil and deploying the core contracts with ${SWAP_SOLVER_COUNT} Executors`);
      chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
      const fixture = await startFixture(chain, scratch);
      solvers = fixture.solvers;
      bare = await startBare();
      const runs: SolversDatabaseRun[] = [];
      for (const kind of options.databases)
        runs.push(await runOnDatabase(kind, options, chain, fixture, bare, scratch));
      const report: SolversReport = {
        suite: "solvers",
        ...runConditions(startedAt, loadAtStart, loadAverage()),
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        runs,
      };
      return { text: formatReport(report), json: report };
    } finally {
      await bare?.stop();
      await solvers?.stop();
      await chain?.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

async function runOnDatabase(
  kind: BenchDatabaseKind,
  options: SuiteOptions,
  chain: BenchChain,
  fixture: SwapFixture,
  bare: RunningProcess,
  scratch: string,
): Promise<SolversDatabaseRun> {
  const scale = kind === "pglite" ? options.pgliteScale : 1;
  const own = ownDatabase(kind, "solvers");
  const solverIds = fixture.deployment.deployment.solvers.map((solver) => solver.id);
  log(`${kind}: generating the dataset (scale ${scale})`);
  // Generated on every run: a fresh database, so no schema of an older build is measured.
  await own.reset();
  const dataset = await withDatabase(kind, async (database) => {
    // The server keeps chain-bound rows only for the chain it serves: this run's anvil.
    await database.query(
      `insert into chain_identity (id, chain_id, genesis_hash) values (1, $1, $2)
       on conflict (id) do update set chain_id = excluded.chain_id, genesis_hash = excluded.genesis_hash`,
      [chain.chainId, chain.genesisHash],
    );
    await database.query("delete from indexed_blocks");
    return generateSolversDataset(database, solverIds, scale);
  });
  log(
    `${kind}: ${formatNumber(dataset.answers)} answers, ${formatNumber(dataset.orders)} orders in ${dataset.generationSeconds.toFixed(1)} s`,
  );

  const sluice = await serveDeployment(own, fixture.deployment, join(scratch, `server-${kind}.log`));
  try {
    const solversUrl = `${sluice.baseUrl}/solvers`;
    await checkSolvers(solversUrl, solverIds.length, dataset);
    const quoteUrl = `${sluice.baseUrl}/quote`;
    const body = quoteBody(chain);

    const measure = async (label: string, url: string, pid: number): Promise<RouteFigures> => {
      log(`${kind}: ${label} (${options.connections} connections, ${options.durationSeconds} s)`);
      const { result } = await measureLoad(
        { url, connections: options.connections },
        { warmupSeconds: WARMUP_SECONDS, durationSeconds: options.durationSeconds, pid, backends: undefined },
      );
      return { ...result, label };
    };
    const barePid = bare.child.pid!;
    const routes: RouteFigures[] = [];
    routes.push(await measure("bare Fastify /bare", `${bare.baseUrl}/bare`, barePid));
    routes.push(await measure("GET /solvers", solversUrl, sluice.child.pid!));
    routes.push(await measure("bare Fastify /bare", `${bare.baseUrl}/bare`, barePid));
    const bareRequestsPerSecond = meanRequestsPerSecond(
      routes.filter((route) => route.label.startsWith("bare")),
    );
    const ratioToBare = routes[1]!.requestsPerSecond / bareRequestsPerSecond;

    log(`${kind}: GET /solvers (1 connection) while /quote writes (${options.connections} connections)`);
    await runClosedLoop({
      url: quoteUrl,
      method: "POST",
      body,
      connections: options.connections,
      durationSeconds: WARMUP_SECONDS,
    });
    const [quoting, reading] = await Promise.all([
      runClosedLoop({
        url: quoteUrl,
        method: "POST",
        body,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      }),
      runClosedLoop({ url: solversUrl, connections: 1, durationSeconds: options.durationSeconds }),
    ]);
    const read = reading.requests.filter((r) => r.status === 200).map((r) => r.latencyMs);
    if (read.length !== reading.requests.length || reading.errors > 0)
      throw new Error(
        `GET /solvers failed ${reading.requests.length - read.length + reading.errors} times under load`,
      );

    log(`${kind}: /quote at saturation (${SATURATION_CONNECTIONS} connections)`);
    const saturated = await runClosedLoop({
      url: quoteUrl,
      method: "POST",
      body,
      connections: SATURATION_CONNECTIONS,
      durationSeconds: options.durationSeconds,
    });
    const quoteLatencies = saturated.requests.filter((r) => r.status === 200).map((r) => r.latencyMs);
    await sluice.stop();

    log(`${kind}: timing the round statement with and without the aggregates`);
    const statements: StatementRun[] = [];
    for (const rounds of STATEMENT_ROUNDS) {
      statements.push(
        await withDatabase(kind, (database) => timeRoundStatement(database, solverIds, rounds)),
      );
    }
    const run = {
      kind,
      scale,
      dataset,
      routes,
      bareRequestsPerSecond,
      ratioToBare,
      underQuoteLoad: {
        solversP50Ms: quantile(read, 0.5),
        solversP99Ms: quantile(read, 0.99),
        solversRequests: read.length,
        quoteRequestsPerSecond:
          quoting.requests.filter((r) => r.status === 200).length / options.durationSeconds,
      },
      quoteSaturation: {
        connections: SATURATION_CONNECTIONS,
        requestsPerSecond: quoteLatencies.length / options.durationSeconds,
        p50Ms: quantile(quoteLatencies, 0.5),
        p99Ms: quantile(quoteLatencies, 0.99),
      },
      statements,
    };
    return { ...run, targets: judge(run) };
  } finally {
    await sluice.stop();
  }
}

async function withDatabase<T>(
  kind: BenchDatabaseKind,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  const database = await ownDatabase(kind, "solvers").open();
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** One request first: 200, every configured solver, and the week's answers all of the dataset's. */
async function checkSolvers(url: string, solvers: number, dataset: SolversDatasetFacts): Promise<void> {
  const fetched = await fetchBody(url);
  const body = JSON.parse(fetched.body.toString("utf8")) as {
    solvers?: Array<{ scorecard: { week: { auctions: { offered: number } } } }>;
  };
  const listed = body.solvers ?? [];
  const offered = listed.reduce((sum, s) => sum + s.scorecard.week.auctions.offered, 0);
  // The week is the last 168 hour buckets: about 7/8 of the 8 days' answers.
  if (fetched.status !== 200 || listed.length !== solvers || offered < dataset.answers * 0.8) {
    throw new Error(
      `/solvers answered ${fetched.status} with ${listed.length} solvers and ${offered} answers in the week`,
    );
  }
}

/**
 * The round writer's statement alone, alternating the variants: `rounds` /quote rounds of the deployment's solvers
 * (each answer quoted, each an entry), fresh ids every call.
 */
async function timeRoundStatement(
  database: Database,
  solverIds: readonly string[],
  rounds: number,
): Promise<StatementRun> {
  const round = (): QuoteRound => {
    const requestId = randomUUID();
    const now = new Date();
    const answers = solverIds.map((solverId, index) => ({
      requestId,
      round: "quote" as const,
      solverId,
      quoteId: randomUUID(),
      outcome: "quoted" as const,
      reason: null,
      detail: null,
      latencyMs: 5 + index * 9,
      amountOut: "99000000",
      legs: 1,
      createdAt: now,
    }));
    const address = `0x${"1".padStart(40, "0")}`;
    return {
      request: {
        requestId,
        swapper: address,
        tokenIn: address,
        tokenOut: address,
        amount: "100000000000000000000",
        outputs: [],
        routingPreference: "BEST_PRICE",
        createdAt: now,
      },
      answers,
      entries: answers.map((answer, rank) => ({
        quoteId: answer.quoteId,
        requestId,
        solverId: answer.solverId,
        filler: address,
        rank,
        tokenIn: address,
        amountIn: "100000000000000000000",
        tokenOut: address,
        amountOut: "99000000",
        outputs: [],
        deadline: Math.floor(now.getTime() / 1000) + 120,
        nonce: String(Math.floor(Math.random() * 2 ** 48)),
        protocol: address,
        createdAt: now,
      })),
    };
  };
  // The round writer's write (QuoteRepository.saveQuoteRounds: one transaction, statements prepared), with and
  // without the scorecards' statement.
  const writes = (batch: readonly QuoteRound[], scorecards: boolean) => {
    const answers = batch.flatMap((r) => r.answers);
    const wins = batch.flatMap((r) =>
      r.entries
        .filter((e) => e.rank === 0)
        .map((e) => ({ solverId: e.solverId, kind: "soft" as const, at: e.createdAt })),
    );
    return [
      quoteRoundsWrite(batch),
      ...answersWrite(answers),
      ...(scorecards ? answerStatsWrites(answers.map(answerFact), wins) : []),
    ];
  };
  const variants = [
    { scorecards: true, durations: [] as number[] },
    { scorecards: false, durations: [] as number[] },
  ];
  for (let i = 0; i < STATEMENT_CALLS + 10; i++) {
    for (const variant of i % 2 === 0 ? variants : [...variants].reverse()) {
      const statements = writes(Array.from({ length: rounds }, round), variant.scorecards);
      const started = performance.now();
      await database.writeTogether(statements);
      // The first ten of each are unmeasured (connection, statement caches).
      if (i >= 10) variant.durations.push(performance.now() - started);
    }
  }
  const timing = (durations: number[]): StatementTiming => {
    const blockP99s = [];
    for (let start = 0; start + STATEMENT_BLOCK <= durations.length; start += STATEMENT_BLOCK) {
      blockP99s.push(quantile(durations.slice(start, start + STATEMENT_BLOCK), 0.99));
    }
    return {
      calls: durations.length,
      p50Ms: quantile(durations, 0.5),
      p99Ms: quantile(blockP99s, 0.5),
      overallP99Ms: quantile(durations, 0.99),
    };
  };
  return {
    rounds,
    answers: rounds * solverIds.length,
    entries: rounds * solverIds.length,
    withAggregates: timing(variants[0]!.durations),
    withoutAggregates: timing(variants[1]!.durations),
  };
}

function judge(run: Omit<SolversDatabaseRun, "targets">): Verdict[] {
  return [
    {
      target: "GET /solvers ≥ 0.3 × bare Fastify (req/s)",
      measured: `${run.ratioToBare.toFixed(2)} ×`,
      pass: run.ratioToBare >= 0.3,
    },
    {
      target: "GET /solvers p99 < 20 ms while /quote writes answers",
      measured: `${ms(run.underQuoteLoad.solversP99Ms)} ms`,
      pass: run.underQuoteLoad.solversP99Ms < 20,
    },
    ...run.statements.flatMap(({ rounds, withAggregates: withA, withoutAggregates: without }) =>
      (["p50Ms", "p99Ms"] as const).map((quantile) => ({
        target: `round statement (${rounds} round${rounds > 1 ? "s" : ""}) ${quantile.slice(0, 3)} with aggregates within 10 % of without`,
        measured: `${withA[quantile].toFixed(2)} vs ${without[quantile].toFixed(2)} ms (${percent(withA[quantile], without[quantile])})`,
        pass: withA[quantile] <= without[quantile] * 1.1,
      })),
    ),
  ];
}

function percent(value: number, base: number): string {
  const change = (value / base - 1) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)} %`;
}

function formatReport(report: SolversReport): string {
  const lines = [
    "## Solvers suite",
    "",
    machineLine(report),
    "",
    `GET /solvers loaded with autocannon at ${report.connections} connections for ${report.durationSeconds} s ` +
      `(after a ${WARMUP_SECONDS} s warm-up), between two runs of the bare Fastify route.`,
  ];
  for (const run of report.runs) {
    const { dataset } = run;
    lines.push(
      "",
      `### ${run.kind === "postgres" ? "PostgreSQL" : "PGlite"}`,
      "",
      `Dataset (scale ${run.scale}): ${formatNumber(dataset.answers)} answers and ${formatNumber(dataset.orders)} ` +
        `orders over ${dataset.days} days, ${dataset.solvers} solvers, generated in ${dataset.generationSeconds.toFixed(1)} s.`,
      "",
      markdownTable(
        ["route", "req/s", "p50 ms", "p99 ms", "× bare"],
        run.routes.map((route) => [
          route.label,
          formatNumber(route.requestsPerSecond),
          String(route.p50Ms),
          String(route.p99Ms),
          route.label.startsWith("bare") ? "" : `${run.ratioToBare.toFixed(2)}`,
        ]),
      ),
      "",
      `GET /solvers while /quote writes (${report.connections} /quote connections, ` +
        `${formatNumber(run.underQuoteLoad.quoteRequestsPerSecond, 1)} quotes/s): ` +
        `p50 ${ms(run.underQuoteLoad.solversP50Ms)} ms, p99 ${ms(run.underQuoteLoad.solversP99Ms)} ms over ` +
        `${formatNumber(run.underQuoteLoad.solversRequests)} requests.`,
      "",
      `/quote at saturation (${run.quoteSaturation.connections} connections, with the aggregates): ` +
        `${formatNumber(run.quoteSaturation.requestsPerSecond, 1)} req/s, p50 ${ms(run.quoteSaturation.p50Ms)} ms, ` +
        `p99 ${ms(run.quoteSaturation.p99Ms)} ms.`,
      "",
      ...run.statements.flatMap((statement) => [
        `The round statement alone (${statement.rounds} round${statement.rounds > 1 ? "s" : ""}: ` +
          `${statement.answers} answers and ${statement.entries} entries, ${statement.withAggregates.calls} calls ` +
          `each, alternating, prepared): with the aggregates p50 ${statement.withAggregates.p50Ms.toFixed(2)} / p99 ` +
          `${statement.withAggregates.p99Ms.toFixed(2)} ms, without ${statement.withoutAggregates.p50Ms.toFixed(2)} / ` +
          `${statement.withoutAggregates.p99Ms.toFixed(2)} ms (p99: the median of the p99s of blocks of ` +
          `${STATEMENT_BLOCK} calls; over all calls ${statement.withAggregates.overallP99Ms.toFixed(2)} vs ` +
          `${statement.withoutAggregates.overallP99Ms.toFixed(2)} ms).`,
        "",
      ]),
      ...targetsSection(run.kind, run.targets),
    );
  }
  return `${lines.join("\n")}\n`;
}

function log(message: string): void {
  process.stderr.write(`[bench solvers] ${message}\n`);
}

// The limits suite (issue 24): what the request limits cost. `sluice serve` on the swap suite's fixture (six solver
// servers answering after 5–50 ms, a real deployment on anvil) runs with RATE_LIMITS=off and =on in turn (twice each,
// interleaved, so drift on a shared machine falls on both), on PostgreSQL and PGlite. With the limits on, every
// request passes them (limits far above the load): reads are counted in memory, /quote and /order on PostgreSQL in
// the shared table (one upsert per request). Measured: three read routes' requests/s (autocannon, target: on ≥ 90 % of
// off) and /quote's latency at 2 connections (closed loop, target: p99 on − off < 1 ms), then the shared counter's own
// increment alone, in this process, against the same PostgreSQL server. See docs/benchmarks.md.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { MemoryWindowCounter, PostgresWindowCounter } from "../../src/limits/window-counters.ts";
import { silentLogger } from "../../src/logger.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { quantile, runClosedLoop } from "../lib/closed-loop.ts";
import type { SolversReady } from "../lib/delayed-solvers.ts";
import { runLoad } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import type { ScriptProcess } from "../lib/script-process.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { machineLine, runConditions } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import { quoteBody, SWAP_SOLVER_COUNT, startFixture } from "./swap.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const READ_ROUTES = ["/deployment", "/solvers", "/entities/networks"] as const;
const MODES = ["off", "on", "off", "on"] as const;
type Mode = (typeof MODES)[number];
const WARMUP_SECONDS = 1;
const COUNTER_INCREMENTS = 5000;

interface ModeRun {
  mode: Mode;
  reads: Record<string, number>;
  quoteLatenciesMs: number[];
  quoteFailures: number;
}

interface DatabaseResult {
  kind: BenchDatabaseKind;
  reads: Array<{ route: string; offRps: number; onRps: number; ratio: number }>;
  quote: {
    offP50: number;
    offP99: number;
    onP50: number;
    onP99: number;
    p99OverheadMs: number;
    requests: number;
    failures: number;
  };
}

export const limitsSuite: BenchSuite = {
  name: "limits",
  description:
    "the request limits' cost: read routes' requests/s and /quote's latency with RATE_LIMITS on vs off, and the shared counter's increment",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-limits-"));
    let chain: BenchChain | undefined;
    let solvers: ScriptProcess<SolversReady> | undefined;
    try {
      log(`starting anvil and deploying the core contracts with ${SWAP_SOLVER_COUNT} Executors`);
      chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
      const fixture = await startFixture(chain, scratch);
      solvers = fixture.solvers;
      const body = quoteBody(chain);
      const results: DatabaseResult[] = [];
      for (const kind of options.databases) {
        const database = ownDatabase(kind, "limits");
        await database.reset();
        await (await database.open()).close();
        const runs: ModeRun[] = [];
        for (const [index, mode] of MODES.entries()) {
          log(`${kind}: RATE_LIMITS=${mode} (${index + 1}/${MODES.length})`);
          const sluice = await startSluiceServer(
            { ...database.serveEnv, ...fixture.deployment.serveEnv, RATE_LIMITS: mode },
            { logFile: join(scratch, `server-${kind}-${index}.log`) },
          );
          try {
            runs.push(await measureMode(mode, sluice.baseUrl, body, options));
          } finally {
            await sluice.stop();
          }
        }
        results.push(summarize(kind, runs));
      }
      const counter = options.databases.includes("postgres") ? await measureSharedCounter() : undefined;
      const conditions = runConditions(startedAt, loadAtStart, loadAverage());
      const report = {
        suite: "limits",
        ...conditions,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        results,
        counter,
      };
      return { text: formatReport(report), json: report };
    } finally {
      await solvers?.stop();
      await chain?.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

async function measureMode(
  mode: Mode,
  baseUrl: string,
  body: string,
  options: SuiteOptions,
): Promise<ModeRun> {
  const reads: Record<string, number> = {};
  for (const route of READ_ROUTES) {
    const url = `${baseUrl}${route}`;
    await runLoad({ url, connections: options.connections, durationSeconds: WARMUP_SECONDS });
    const result = await runLoad({
      url,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${route} with RATE_LIMITS=${mode}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    reads[route] = result.requestsPerSecond;
  }
  const quoteUrl = `${baseUrl}/quote`;
  await runClosedLoop({
    url: quoteUrl,
    method: "POST",
    body,
    connections: options.connections,
    durationSeconds: WARMUP_SECONDS,
  });
  const quotes = await runClosedLoop({
    url: quoteUrl,
    method: "POST",
    body,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
  });
  const ok = quotes.requests.filter((request) => request.status === 200);
  return {
    mode,
    reads,
    quoteLatenciesMs: ok.map((request) => request.latencyMs),
    quoteFailures: quotes.requests.length - ok.length + quotes.errors,
  };
}

function summarize(kind: BenchDatabaseKind, runs: ModeRun[]): DatabaseResult {
  const of = (mode: Mode) => runs.filter((run) => run.mode === mode);
  const meanReads = (mode: Mode, route: string) =>
    of(mode).reduce((sum, run) => sum + run.reads[route]!, 0) / of(mode).length;
  const latencies = (mode: Mode) => of(mode).flatMap((run) => run.quoteLatenciesMs);
  const [off, on] = [latencies("off"), latencies("on")];
  return {
    kind,
    reads: READ_ROUTES.map((route) => {
      const offRps = meanReads("off", route);
      const onRps = meanReads("on", route);
      return { route, offRps, onRps, ratio: onRps / offRps };
    }),
    quote: {
      offP50: quantile(off, 0.5),
      offP99: quantile(off, 0.99),
      onP50: quantile(on, 0.5),
      onP99: quantile(on, 0.99),
      p99OverheadMs: quantile(on, 0.99) - quantile(off, 0.99),
      requests: off.length + on.length,
      failures: runs.reduce((sum, run) => sum + run.quoteFailures, 0),
    },
  };
}

/** The fan-out class's one extra step on PostgreSQL, alone: sequential increments of one caller's window. */
async function measureSharedCounter() {
  const database = ownDatabase("postgres", "limits");
  const db = await openDatabase({ kind: "postgres", url: database.serveEnv.DATABASE_URL! });
  try {
    await migrate(db);
    const counter = new PostgresWindowCounter(db, new MemoryWindowCounter(systemClock), silentLogger());
    const memory = new MemoryWindowCounter(systemClock);
    const time = async (incr: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < COUNTER_INCREMENTS; i++) {
        const started = performance.now();
        await incr();
        samples.push(performance.now() - started);
      }
      return { p50Ms: quantile(samples, 0.5), p99Ms: quantile(samples, 0.99) };
    };
    await time(() => counter.incr("quote:ip:bench-warmup", 60_000));
    return {
      increments: COUNTER_INCREMENTS,
      postgres: await time(() => counter.incr("quote:ip:bench", 60_000)),
      memory: await time(() => memory.incr("quote:ip:bench", 60_000)),
    };
  } finally {
    await db.close();
  }
}

function formatReport(
  report: {
    results: DatabaseResult[];
    counter: Awaited<ReturnType<typeof measureSharedCounter>> | undefined;
    connections: number;
    durationSeconds: number;
  } & ReturnType<typeof runConditions>,
): string {
  const ms = (value: number) => formatNumber(value, 2);
  const sections = report.results.map((result) => {
    const reads = markdownTable(
      ["route", "off (req/s)", "on (req/s)", "on / off", "target ≥ 0.90"],
      result.reads.map((read) => [
        `GET ${read.route}`,
        formatNumber(read.offRps),
        formatNumber(read.onRps),
        formatNumber(read.ratio, 3),
        read.ratio >= 0.9 ? "met" : "missed",
      ]),
    );
    const { quote } = result;
    const quoteTable = markdownTable(
      ["POST /quote", "p50 (ms)", "p99 (ms)"],
      [
        ["RATE_LIMITS=off", ms(quote.offP50), ms(quote.offP99)],
        ["RATE_LIMITS=on", ms(quote.onP50), ms(quote.onP99)],
        [
          "on − off",
          ms(quote.onP50 - quote.offP50),
          `${ms(quote.p99OverheadMs)} (target < 1: ${quote.p99OverheadMs < 1 ? "met" : "missed"})`,
        ],
      ],
    );
    return `### ${result.kind}\n\n${reads}\n\n${quoteTable}\n\n${quote.requests} /quote answered 200, ${quote.failures} not.`;
  });
  const counter = report.counter
    ? `\n\n### The shared counter alone (PostgreSQL, ${report.counter.increments} sequential increments)\n\n${markdownTable(
        ["counter", "p50 (ms)", "p99 (ms)"],
        [
          ["PostgreSQL upsert", ms(report.counter.postgres.p50Ms), ms(report.counter.postgres.p99Ms)],
          ["in memory", ms(report.counter.memory.p50Ms), ms(report.counter.memory.p99Ms)],
        ],
      )}`
    : "";
  return (
    `## Limits suite\n\n${machineLine(report)}\n\n${report.connections} connections, ${report.durationSeconds} s per ` +
    `measured run (after ${WARMUP_SECONDS} s of warm-up), RATE_LIMITS off/on/off/on per database.\n\n` +
    `${sections.join("\n\n")}${counter}`
  );
}

function log(message: string): void {
  process.stderr.write(`[bench] limits: ${message}\n`);
}

// The limits suite (issue 24): what the request limits cost. Two `sluice serve` on the swap suite's fixture (six
// solver servers answering after 5–50 ms, a real deployment on anvil), one with RATE_LIMITS=off and one with =on, run
// side by side and are loaded in alternating one-second rounds (so whatever else a shared machine does falls on
// both), on PostgreSQL and PGlite. With the limits on, every request passes them (limits far above the load): reads
// are counted in memory, /quote and /order on PostgreSQL in the shared table through leases (one upsert per lease of
// up to 100 hits, taken ahead). Measured: three read routes' requests/s (autocannon, target: on ≥ 90 % of off) and
// /quote's latency at 2 connections (closed loop, target: p99 on − off < 1 ms), then the shared table's one-hit
// upsert alone, in this process, against the same PostgreSQL server. See docs/benchmarks.md.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import { MemoryWindowCounter, PostgresWindows } from "../../src/limits/window-counters.ts";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { quantile, runClosedLoop } from "../lib/closed-loop.ts";
import { processCpuMs } from "../lib/cpu.ts";
import type { SolversReady } from "../lib/delayed-solvers.ts";
import { runLoad } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import type { RunningProcess } from "../lib/processes.ts";
import type { ScriptProcess } from "../lib/script-process.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { machineLine, runConditions } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import { quoteBody, SWAP_SOLVER_COUNT, startFixture } from "./swap.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const READ_ROUTES = ["/deployment", "/solvers", "/entities/networks"] as const;
const MODES = ["off", "on"] as const;
type Mode = (typeof MODES)[number];
const WARMUP_SECONDS = 1;
const COUNTER_INCREMENTS = 5000;

interface DatabaseResult {
  kind: BenchDatabaseKind;
  reads: Array<{
    route: string;
    offRps: number;
    onRps: number;
    ratio: number;
    /** Server CPU per request over every round (from /proc), each mode's own server. */
    offCpuUs: number;
    onCpuUs: number;
  }>;
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
        // Two servers side by side, one with the limits off and one with them on, each on its own database (an
        // embedded one allows one process); every measured second alternates between them, so whatever else the
        // machine does falls on both alike.
        const servers: Record<Mode, RunningProcess> = {} as Record<Mode, RunningProcess>;
        try {
          for (const mode of MODES) {
            const database = ownDatabase(kind, `limits_${mode}`);
            await database.reset();
            await (await database.open()).close();
            log(`${kind}: starting sluice serve with RATE_LIMITS=${mode}`);
            servers[mode] = await startSluiceServer(
              { ...database.serveEnv, ...fixture.deployment.serveEnv, RATE_LIMITS: mode },
              { logFile: join(scratch, `server-${kind}-${mode}.log`) },
            );
          }
          results.push(await measurePaired(kind, servers, body, options));
        } finally {
          for (const server of Object.values(servers)) await server.stop();
        }
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

/** Per route, `durationSeconds` rounds of one second on each server, in alternating order; medians compared. */
async function measurePaired(
  kind: BenchDatabaseKind,
  servers: Record<Mode, RunningProcess>,
  body: string,
  options: SuiteOptions,
): Promise<DatabaseResult> {
  const rounds = options.durationSeconds;
  const orderOf = (round: number): Mode[] => (round % 2 === 0 ? ["off", "on"] : ["on", "off"]);
  // Every route warmed up on both servers before the first is measured: the route measured first right after the
  // starts swung either way (0.82 × and 1.44 × for routes at 0.97–1.00 × once measured later) while the servers were
  // still settling.
  const warmRead = (mode: Mode, route: string) =>
    runLoad({
      url: `${servers[mode].baseUrl}${route}`,
      connections: options.connections,
      durationSeconds: WARMUP_SECONDS,
    });
  const warmQuote = (mode: Mode) =>
    runClosedLoop({
      url: `${servers[mode].baseUrl}/quote`,
      method: "POST",
      body,
      connections: options.connections,
      durationSeconds: WARMUP_SECONDS,
    });
  log(`${kind}: warming up every route on both servers`);
  for (const mode of MODES) {
    for (const route of READ_ROUTES) await warmRead(mode, route);
    await warmQuote(mode);
  }
  const reads: DatabaseResult["reads"] = [];
  for (const route of READ_ROUTES) {
    log(`${kind}: GET ${route}, ${rounds} rounds`);
    const rps: Record<Mode, number[]> = { off: [], on: [] };
    const cpu: Record<Mode, { ms: number; requests: number }> = {
      off: { ms: 0, requests: 0 },
      on: { ms: 0, requests: 0 },
    };
    for (const mode of MODES) await warmRead(mode, route);
    for (let round = 0; round < rounds; round++) {
      for (const mode of orderOf(round)) {
        const pid = servers[mode].child.pid!;
        const before = processCpuMs(pid);
        const result = await runLoad({
          url: `${servers[mode].baseUrl}${route}`,
          connections: options.connections,
          durationSeconds: 1,
        });
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(
            `${route} with RATE_LIMITS=${mode}: ${result.non2xx} non-2xx, ${result.errors} errors`,
          );
        cpu[mode].ms += processCpuMs(pid) - before;
        cpu[mode].requests += result.total;
        rps[mode].push(result.requestsPerSecond);
      }
    }
    const offRps = quantile(rps.off, 0.5);
    const onRps = quantile(rps.on, 0.5);
    const cpuUs = (mode: Mode) => (cpu[mode].ms * 1000) / cpu[mode].requests;
    reads.push({ route, offRps, onRps, ratio: onRps / offRps, offCpuUs: cpuUs("off"), onCpuUs: cpuUs("on") });
  }
  log(`${kind}: POST /quote, ${rounds} rounds`);
  const latencies: Record<Mode, number[]> = { off: [], on: [] };
  let failures = 0;
  for (const mode of MODES) await warmQuote(mode);
  for (let round = 0; round < rounds * 2; round++) {
    for (const mode of orderOf(round)) {
      const result = await runClosedLoop({
        url: `${servers[mode].baseUrl}/quote`,
        method: "POST",
        body,
        connections: options.connections,
        durationSeconds: 1,
      });
      const ok = result.requests.filter((request) => request.status === 200);
      latencies[mode].push(...ok.map((request) => request.latencyMs));
      failures += result.requests.length - ok.length + result.errors;
    }
  }
  const { off, on } = latencies;
  return {
    kind,
    reads,
    quote: {
      offP50: quantile(off, 0.5),
      offP99: quantile(off, 0.99),
      onP50: quantile(on, 0.5),
      onP99: quantile(on, 0.99),
      p99OverheadMs: quantile(on, 0.99) - quantile(off, 0.99),
      requests: off.length + on.length,
      failures,
    },
  };
}

/** The fan-out class's one extra step on PostgreSQL, alone: sequential one-hit upserts of one caller's window. */
async function measureSharedCounter() {
  const db = await ownDatabase("postgres", "limits").open();
  try {
    const counter = new PostgresWindows(db);
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
    await time(() => counter.add("quote:ip:bench-warmup", 60_000, 1));
    return {
      increments: COUNTER_INCREMENTS,
      postgres: await time(() => counter.add("quote:ip:bench", 60_000, 1)),
      memory: await time(async () => memory.incr("quote:ip:bench", 60_000)),
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
      [
        "route",
        "off (req/s)",
        "on (req/s)",
        "on / off",
        "target ≥ 0.90",
        "off CPU µs/req",
        "on CPU µs/req",
        "CPU off / on",
      ],
      result.reads.map((read) => [
        `GET ${read.route}`,
        formatNumber(read.offRps),
        formatNumber(read.onRps),
        formatNumber(read.ratio, 3),
        read.ratio >= 0.9 ? "met" : "missed",
        read.offCpuUs.toFixed(0),
        read.onCpuUs.toFixed(0),
        formatNumber(read.offCpuUs / read.onCpuUs, 3),
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
    `## Limits suite\n\n${machineLine(report)}\n\n${report.connections} connections; per database two servers side ` +
    `by side, RATE_LIMITS=off and =on, every route warmed up on both first; per read route ` +
    `${report.durationSeconds} rounds of 1 s on each (alternating which goes first, after ${WARMUP_SECONDS} s of ` +
    `warm-up), medians of the rounds' requests/s; /quote ` +
    `${report.durationSeconds * 2} such rounds, latencies pooled.\n\n` +
    `${sections.join("\n\n")}${counter}`
  );
}

function log(message: string): void {
  process.stderr.write(`[bench] limits: ${message}\n`);
}

// The overhead suite (issue 25): what a Sluice request pays that a bare route does not. `sluice serve` (on the swap
// suite's fixture: anvil and its deployment, with the demo registry and points loaded) answers cached reads — /entities/vaults and /points/* — beside a bare Fastify process
// sending each route's very bytes; they are loaded in alternating one-second rounds (whatever else a shared machine
// does falls on both), and each process's CPU time is read from /proc around its rounds. Figures: requests/s and
// server CPU per request, each as a ratio to the bare route. With OVERHEAD_BASELINE_ROOT set to another checkout
// (`npm ci` run there), that build's server is measured in the same rounds (A/B). Then, unless
// OVERHEAD_PROFILE=0, the server is profiled under the same load and its CPU split by what ran it (the per-request
// hooks: request id, log, metrics, CORS, limits, validation, error envelope). See bench/README.md.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { loadInRounds } from "../lib/against-bare.ts";
import { type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { processCpuMs } from "../lib/cpu.ts";
import { fetchBody } from "../lib/http.ts";
import { runLoad } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import { type RunningProcess, startBare } from "../lib/processes.ts";
import {
  monotonicUs,
  type ProfileShare,
  type ProfileWindow,
  summarizeProfile,
} from "../lib/profile-summary.ts";
import { startSluiceServer } from "../lib/sluice-server.ts";
import { machineLine, runConditions, targetsTable, type Verdict } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";
import { SWAP_SOLVER_COUNT, startFixture } from "./swap.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const WARMUP_SECONDS = 1;
const PROFILE_SECONDS = 5;
const IDLE_SECONDS = 5;

type Build = "this" | "baseline";

interface RouteResult {
  route: string;
  bodyBytes: number;
  bareRps: number;
  bareCpuUsPerRequest: number;
  builds: Array<{ build: Build; rps: number; ratio: number; cpuUsPerRequest: number; cpuRatio: number }>;
}

interface DatabaseResult {
  kind: BenchDatabaseKind;
  routes: RouteResult[];
  /** Each server's CPU while no request is sent (its workers: block tracking, indexer, folds), ms per second. */
  idleCpuMsPerSecond: Partial<Record<Build, number>>;
  profile?: { route: string; busyMs: number; requests: number; shares: ProfileShare[] };
}

export const overheadSuite: BenchSuite = {
  name: "overhead",
  description:
    "per-request overhead: cached reads (/entities/vaults, /points/*) vs bare Fastify sending the same bytes, req/s and CPU per request, and a profile of where the server's CPU goes",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-overhead-"));
    const baselineRoot = process.env.OVERHEAD_BASELINE_ROOT;
    let chain: BenchChain | undefined;
    let fixture: Awaited<ReturnType<typeof startFixture>> | undefined;
    try {
      log(`starting anvil and deploying the core contracts with ${SWAP_SOLVER_COUNT} Executors`);
      chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
      fixture = await startFixture(chain, scratch);
      const serveEnv = fixture.deployment.serveEnv;
      const results: DatabaseResult[] = [];
      for (const kind of options.databases)
        results.push(await measureDatabase(kind, scratch, baselineRoot, serveEnv, options));
      const conditions = runConditions(startedAt, loadAtStart, loadAverage());
      const report = {
        suite: "overhead",
        ...conditions,
        connections: options.connections,
        rounds: options.durationSeconds,
        baselineRoot: baselineRoot ?? null,
        results,
      };
      return { text: formatReport(report), json: report };
    } finally {
      await fixture?.solvers.stop();
      await chain?.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

async function startServer(
  kind: BenchDatabaseKind,
  build: Build,
  root: string | undefined,
  scratch: string,
  serveEnv: Record<string, string>,
): Promise<RunningProcess> {
  const database = ownDatabase(kind, `overhead_${build}`);
  await database.reset();
  // Created empty: each build migrates it with its own migrations and loads the demo registry and points.
  await (await database.openUnmigrated()).close();
  if (root) process.env.BENCH_SLUICE_ROOT = root;
  try {
    return await startSluiceServer(
      { ...database.serveEnv, ...serveEnv, SLUICE_DEMO_DATA: "1" },
      { logFile: join(scratch, `server-${kind}-${build}.log`) },
    );
  } finally {
    delete process.env.BENCH_SLUICE_ROOT;
  }
}

async function measureDatabase(
  kind: BenchDatabaseKind,
  scratch: string,
  baselineRoot: string | undefined,
  serveEnv: Record<string, string>,
  options: SuiteOptions,
): Promise<DatabaseResult> {
  const servers: Partial<Record<Build, RunningProcess>> = {};
  const routes: RouteResult[] = [];
  let route: string[] = [];
  let idleCpuMsPerSecond: Partial<Record<Build, number>> = {};
  try {
    log(`${kind}: starting sluice serve (demo registry and points)`);
    servers.this = await startServer(kind, "this", undefined, scratch, serveEnv);
    if (baselineRoot) {
      log(`${kind}: starting the baseline build's sluice serve (${baselineRoot})`);
      servers.baseline = await startServer(kind, "baseline", baselineRoot, scratch, serveEnv);
    }
    route = await cachedReads(servers.this.baseUrl);
    for (const path of route) routes.push(await measureRoute(kind, path, servers, scratch, options));
    idleCpuMsPerSecond = await measureIdle(servers);
  } finally {
    for (const server of Object.values(servers)) await server?.stop();
  }
  if (process.env.OVERHEAD_PROFILE === "0") return { kind, routes, idleCpuMsPerSecond };
  return {
    kind,
    routes,
    idleCpuMsPerSecond,
    profile: await profileRoute(kind, route[0]!, scratch, serveEnv, options),
  };
}

/**
 * Each server's CPU with no request sent, in alternating one-second windows: the part of a loaded round's CPU per
 * request that is the workers' (divided by that round's rate), not the requests'.
 */
async function measureIdle(
  servers: Partial<Record<Build, RunningProcess>>,
): Promise<Partial<Record<Build, number>>> {
  const used: Partial<Record<Build, number>> = {};
  for (let window = 0; window < IDLE_SECONDS; window++) {
    for (const [build, server] of Object.entries(servers) as Array<[Build, RunningProcess]>) {
      const before = processCpuMs(server.child.pid!);
      const started = performance.now();
      await sleep(1000);
      const seconds = (performance.now() - started) / 1000;
      used[build] = (used[build] ?? 0) + (processCpuMs(server.child.pid!) - before) / seconds / IDLE_SECONDS;
    }
  }
  return used;
}

/** The routes measured: the vaults list, the points total and one vault's points (the demo's first vault). */
async function cachedReads(baseUrl: string): Promise<string[]> {
  const vaults = await fetchBody(`${baseUrl}/entities/vaults`);
  const parsed = JSON.parse(vaults.body.toString("utf8")) as unknown;
  const list = Array.isArray(parsed) ? parsed : ((parsed as { vaults?: unknown[] }).vaults ?? []);
  const address = (list[0] as { address?: string } | undefined)?.address;
  return [
    "/entities/vaults",
    "/points/total/current",
    ...(address ? [`/points/vault/${address}/current`] : []),
  ];
}

async function measureRoute(
  kind: BenchDatabaseKind,
  path: string,
  servers: Partial<Record<Build, RunningProcess>>,
  scratch: string,
  options: SuiteOptions,
): Promise<RouteResult> {
  const sample = await fetchBody(`${servers.this!.baseUrl}${path}`);
  if (sample.status !== 200) throw new Error(`${path}: ${sample.status}`);
  const bodyFile = join(scratch, "body.json");
  writeFileSync(bodyFile, sample.body);
  const bare = await startBare({ bodyFile });
  try {
    const targets: Array<{ name: Build | "bare"; url: string; pid: number }> = [
      { name: "bare", url: `${bare.baseUrl}/body`, pid: bare.child.pid! },
      ...(["this", "baseline"] as const).flatMap((build) => {
        const server = servers[build];
        return server ? [{ name: build, url: `${server.baseUrl}${path}`, pid: server.child.pid! }] : [];
      }),
    ];
    log(
      `${kind}: GET ${path} (${sample.body.length} bytes), ${options.durationSeconds} rounds of ${targets.length}`,
    );
    const figures = await loadInRounds(targets, {
      connections: options.connections,
      rounds: options.durationSeconds,
      warmupSeconds: WARMUP_SECONDS,
    });
    const medianRps = (name: Build | "bare") => figures.get(name)!.rps;
    const cpuUs = (name: Build | "bare") => figures.get(name)!.cpuUsPerRequest;
    const bareRps = medianRps("bare");
    const bareCpu = cpuUs("bare");
    return {
      route: path,
      bodyBytes: sample.body.length,
      bareRps,
      bareCpuUsPerRequest: bareCpu,
      builds: targets
        .filter((target): target is { name: Build; url: string; pid: number } => target.name !== "bare")
        .map((target) => ({
          build: target.name,
          rps: medianRps(target.name),
          ratio: medianRps(target.name) / bareRps,
          cpuUsPerRequest: cpuUs(target.name),
          cpuRatio: bareCpu / cpuUs(target.name),
        })),
    };
  } finally {
    await bare.stop();
  }
}

/** This build's server profiled (cpu-profiler.mjs) while `path` is loaded; its CPU split by what ran it. */
async function profileRoute(
  kind: BenchDatabaseKind,
  path: string,
  scratch: string,
  serveEnv: Record<string, string>,
  options: SuiteOptions,
) {
  const directory = mkdtempSync(join(scratch, "profile-"));
  process.env.BENCH_SERVER_CPU_PROFILE = directory;
  let server: RunningProcess | undefined;
  let requests = 0;
  let window: ProfileWindow | undefined;
  try {
    log(`${kind}: profiling GET ${path} for ${PROFILE_SECONDS} s`);
    server = await startServer(kind, "this", undefined, scratch, serveEnv);
    await runLoad({ url: `${server.baseUrl}${path}`, connections: options.connections, durationSeconds: 1 });
    // Only the measured load's samples are split: start-up, the demo import and the warm-up are left out.
    const fromUs = monotonicUs();
    const result = await runLoad({
      url: `${server.baseUrl}${path}`,
      connections: options.connections,
      durationSeconds: PROFILE_SECONDS,
    });
    window = { fromUs, toUs: monotonicUs() };
    requests = result.total;
  } finally {
    delete process.env.BENCH_SERVER_CPU_PROFILE;
    await server?.stop();
  }
  const file = readdirSync(directory).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${directory}`);
  const kept = process.env.OVERHEAD_PROFILE_KEEP;
  if (kept) {
    mkdirSync(kept, { recursive: true });
    copyFileSync(join(directory, file), join(kept, `overhead-${kind}-${file}`));
    writeFileSync(join(kept, `overhead-${kind}-${file}.window.json`), JSON.stringify(window));
  }
  return { route: path, requests, ...summarizeProfile(join(directory, file), 25, window) };
}

function judge(results: readonly DatabaseResult[]): Verdict[] {
  return results.flatMap(({ kind, routes }) =>
    routes.flatMap((route) => {
      const ours = route.builds.find((build) => build.build === "this");
      if (!ours) return [];
      const floor = route.route === "/entities/vaults" ? 0.85 : 0.6;
      return [
        {
          target: `${kind}: GET ${route.route} ≥ ${floor} × bare Fastify, same bytes (req/s)`,
          measured: `${ours.ratio.toFixed(2)} × (CPU per request ${ours.cpuRatio.toFixed(2)} × bare's)`,
          pass: ours.ratio >= floor,
        },
      ];
    }),
  );
}

function formatReport(report: {
  startedAt: string;
  finishedAt: string;
  machine: ReturnType<typeof runConditions>["machine"];
  loadAverage: { start: number; end: number };
  connections: number;
  rounds: number;
  baselineRoot: string | null;
  results: DatabaseResult[];
}): string {
  const lines = [
    "## Overhead suite",
    "",
    machineLine(report),
    "",
    `Started ${report.startedAt}, finished ${report.finishedAt}. Each route: ${report.rounds} one-second rounds per ` +
      `server at ${report.connections} connections, alternating with bare Fastify sending the same bytes` +
      (report.baselineRoot ? ` and the baseline build (${report.baselineRoot})` : "") +
      "; req/s medians, CPU per request from /proc over all rounds. Ratios: ours ÷ bare (req/s), bare ÷ ours (CPU).",
    "",
    targetsTable(judge(report.results)),
    "",
  ];
  for (const result of report.results) {
    lines.push(`### ${result.kind}`, "");
    lines.push(
      markdownTable(
        [
          "route",
          "bytes",
          "bare req/s",
          "bare CPU µs/req",
          "build",
          "req/s",
          "× bare",
          "CPU µs/req",
          "CPU × bare",
        ],
        result.routes.flatMap((route) =>
          route.builds.map((build) => [
            route.route,
            formatNumber(route.bodyBytes),
            formatNumber(route.bareRps),
            route.bareCpuUsPerRequest.toFixed(0),
            build.build,
            formatNumber(build.rps),
            build.ratio.toFixed(2),
            build.cpuUsPerRequest.toFixed(0),
            build.cpuRatio.toFixed(2),
          ]),
        ),
      ),
      "",
    );
    const idle = Object.entries(result.idleCpuMsPerSecond) as Array<[Build, number]>;
    if (idle.length > 0) {
      const vaults = result.routes.find((route) => route.route === "/entities/vaults");
      lines.push(
        `Idle CPU (no request sent, ${IDLE_SECONDS} one-second windows each): ` +
          idle
            .map(([build, ms]) => {
              const rps = vaults?.builds.find((entry) => entry.build === build)?.rps;
              const share = rps
                ? `, ${((ms * 1000) / rps).toFixed(1)} µs of each vaults request at its rate`
                : "";
              return `${build} ${ms.toFixed(1)} ms/s${share}`;
            })
            .join("; ") +
          ".",
        "",
      );
    }
    if (result.profile) {
      const { profile } = result;
      lines.push(
        `Profile of GET ${profile.route} (${formatNumber(profile.requests)} requests, ${profile.busyMs.toFixed(0)} ms busy, ` +
          `${((profile.busyMs * 1000) / Math.max(1, profile.requests)).toFixed(0)} µs per request, the measured load's samples only): self time by owner`,
        "",
        markdownTable(
          ["owner", "ms", "share of busy"],
          profile.shares.map((share) => [
            share.what,
            share.ms.toFixed(0),
            `${(share.share * 100).toFixed(1)} %`,
          ]),
        ),
        "",
      );
    }
  }
  return lines.join("\n");
}

function log(message: string): void {
  process.stderr.write(`[overhead] ${message}\n`);
}

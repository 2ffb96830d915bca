// An A/B run of two builds (issues 15 and 25): the server CPU one /quote costs, and /quote throughput, on this
// checkout's build and another checkout's (BASELINE_ROOT, `npm ci` run there), against the swap suite's fixture
// (anvil, six solver servers answering after 5–50 ms). Each round starts each build on a fresh database, warms it up,
// then loads it with closed-loop connections for 10 s, reading the server process's CPU time (/proc, user +
// system) before and after: CPU per /quote is that time over the /quotes answered, a figure other work on a shared
// machine barely moves (unlike req/s). Builds alternate first and second from round to round. The load average is
// printed beside every figure. With BENCH_SERVER_CPU_PROFILE set, every server writes a CPU profile, summarized here.
//
// Throughput at saturation needs more requests in flight than 16 connections give (16 / ~55 ms per round ≈ 290 /s
// whatever the CPU): `--connections` opens more, from `--clients` loopback addresses (127.0.0.1, .2, …) since one
// client holds at most its share of each solver's slots, and each solver's cap is raised to `--solver-slots`.
//
// `--bare` measures a third server in the same rounds: bare-auction-server.ts, a Fastify route doing only the
// I/O any Node `/quote` does (the wallet's body, the six solver requests on kept-alive connections, their answers,
// one JSON answer): the floor under both builds' CPU per `/quote` on this machine and in this run.
//
// Run one build at a time (not `--together`), each round also says where the rest of the machine's CPU went per
// `/quote`: the six solver servers, the load generator (this process), the build's PostgreSQL backends, and the
// whole machine's busy time (/proc/stat) — at saturation, the venue's throughput is the two cores over that sum.
//
// `--together` runs both builds at once, each on its own database and loaded by its own closed loop of
// `--connections`, their CPU read over the same 10 s: on a machine whose other load comes and goes, the two figures
// of a round then see the same machine, where one build after the other may not (both still share the solvers).
// `--lean-harness` runs the six solver servers and the load generator on their lean transports (hand-written HTTP/1.1
// over `node:net`, delayed-solvers.ts and closed-loop.ts) instead of `node:http`: they stand for machines other than
// the venue's, and take less of the two cores the builds are judged on. The same harness serves every build of a run.
//   BASELINE_ROOT=/path/to/checkout npx tsx bench/ab/quote-cpu.ts [--db postgres|pglite] [--rounds 3]
//     [--connections 16] [--clients 1] [--solver-slots 32] [--together] [--bare] [--lean-harness]
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { runClosedLoop } from "../lib/closed-loop.ts";
import { machineBusyMs, mainThreadCpuMs, processCpuMs } from "../lib/cpu.ts";
import { loadAverage } from "../lib/machine.ts";
import { openBackendProbe } from "../lib/pg-backends.ts";
import { type RunningProcess, startBareAuction } from "../lib/processes.ts";
import { summarizeProfile } from "../lib/profile-summary.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import { quoteBody, SWAP_SOLVER_COUNT, startFixture } from "../suites/swap.ts";

const baseline = process.env.BASELINE_ROOT;
if (!baseline) throw new Error("set BASELINE_ROOT to the other checkout (with `npm ci` run in it)");
const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "postgres" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "16" },
    clients: { type: "string", default: "1" },
    "solver-slots": { type: "string" },
    together: { type: "boolean", default: false },
    bare: { type: "boolean", default: false },
    "lean-harness": { type: "boolean", default: false },
  },
});
const count = (name: string, value: string | undefined): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${value}`);
  return parsed;
};
if (args.db !== "postgres" && args.db !== "pglite") throw new Error(`--db must be postgres or pglite`);
const kind: BenchDatabaseKind = args.db;
const rounds = count("rounds", args.rounds);
const CONNECTIONS = count("connections", args.connections);
const clients = count("clients", args.clients);
if (clients > 250) throw new Error("--clients must be at most 250 (127.0.0.1 to 127.0.0.250)");
const localAddresses = Array.from({ length: clients }, (_, index) => `127.0.0.${index + 1}`);
const together = args.together === true;
const solverSlots =
  args["solver-slots"] === undefined ? undefined : count("solver-slots", args["solver-slots"]);
const builds = { this: fileURLToPath(new URL("../..", import.meta.url)), baseline };
/** The two builds, and the bare auction when `--bare` asks for it. */
type Build = keyof typeof builds | "bare";
const withBare = args.bare === true;
const leanHarness = args["lean-harness"] === true;
const SECONDS = 10;

const scratch = mkdtempSync(join(tmpdir(), "sluice-ab-cpu-"));
const profiles = process.env.BENCH_SERVER_CPU_PROFILE;
const chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
const fixture = await startFixture(chain, scratch, {
  ...(solverSlots === undefined ? {} : { solverSlots }),
  leanSolvers: leanHarness,
});
const body = quoteBody(chain);
const figures: Record<Build, Array<{ cpuMsPerQuote: number; perSecond: number }>> = {
  this: [],
  baseline: [],
  bare: [],
};
const load = () => loadAverage().toFixed(2);
console.log(
  `${kind}, ${rounds} rounds, ${CONNECTIONS} connections from ${clients} client address(es), solver slots ` +
    `${solverSlots ?? "default"}${together ? ", both builds loaded at once" : ""}` +
    `${withBare ? ", the bare auction measured too" : ""}` +
    `${leanHarness ? ", the lean harness (solvers and load generator)" : ""}; load average ${load()} at the start`,
);
/** Starts `build` on a fresh database of its own. */
/** A build's database in this run, fresh each round. */
const buildDatabase = (build: Exclude<Build, "bare">) => ownDatabase(kind, `ab_cpu_${build}`);

async function startBuild(build: Build, round: number): Promise<RunningProcess> {
  if (build === "bare")
    return startBareAuction(
      fixture.solvers.ready.solvers.map(({ id, url }) => ({ url, secret: fixture.secrets.get(id)! })),
    );
  const database = buildDatabase(build);
  await database.reset();
  // Created empty: each build migrates it with its own migrations.
  await (await database.openUnmigrated()).close();
  process.env.BENCH_SLUICE_ROOT = builds[build];
  try {
    return await serveDeployment(database, fixture.deployment, join(scratch, `${build}-${round}.log`));
  } finally {
    delete process.env.BENCH_SLUICE_ROOT;
  }
}

type Server = RunningProcess;

/** Loads each server with its own closed loop, all at once: 2 s of warm-up, then the measured seconds. */
async function measure(round: number, running: Array<{ build: Build; server: Server }>) {
  const loop = (server: Server, durationSeconds: number) =>
    runClosedLoop({
      url: `${server.baseUrl}/quote`,
      method: "POST",
      body,
      connections: CONNECTIONS,
      durationSeconds,
      localAddresses,
      transport: leanHarness ? "lean" : "node:http",
    });
  await Promise.all(running.map(({ server }) => loop(server, 2)));
  const alone = running.length === 1 ? running[0]!.build : undefined;
  const others = alone === undefined ? undefined : await othersProbe(alone);
  const before = running.map(({ server }) => processCpuMs(server.child.pid!));
  const mainBefore = running.map(({ server }) => mainThreadCpuMs(server.child.pid!));
  const othersBefore = await others?.read();
  const runs = await Promise.all(running.map(({ server }) => loop(server, SECONDS)));
  const cpuMs = running.map(({ server }, index) => processCpuMs(server.child.pid!) - before[index]!);
  const mainMs = running.map(({ server }, index) => mainThreadCpuMs(server.child.pid!) - mainBefore[index]!);
  const othersAfter = await others?.read();
  await others?.close();
  running.forEach(({ build }, index) => {
    const run = runs[index]!;
    const ok = run.requests.filter((request) => request.status === 200).length;
    const figure = { cpuMsPerQuote: cpuMs[index]! / ok, perSecond: ok / SECONDS };
    figures[build].push(figure);
    console.log(
      `${build} (round ${round + 1}): ${figure.cpuMsPerQuote.toFixed(2)} ms CPU per /quote, ` +
        `${figure.perSecond.toFixed(1)} /quote per s, ${run.errors} errors, ` +
        `${run.requests.length - ok} non-200; load average ${load()}`,
    );
    console.log(
      `  its main thread ${(mainMs[index]! / ok).toFixed(2)} ms per /quote, ` +
        `busy ${((mainMs[index]! / (SECONDS * 1000)) * 100).toFixed(0)} % of the ${SECONDS} s`,
    );
    if (othersBefore && othersAfter) {
      const per = (key: keyof CpuSplit) => ((othersAfter[key] - othersBefore[key]) / ok).toFixed(2);
      console.log(
        `  the rest, ms CPU per /quote: solvers ${per("solvers")}, load generator ${per("client")}, ` +
          `PostgreSQL ${per("postgres")}; the whole machine ${per("machine")}`,
      );
    }
  });
}

interface CpuSplit {
  solvers: number;
  client: number;
  postgres: number;
  machine: number;
}

/** Reads the CPU time of everyone else a `/quote` of `build` costs (its database's backends: PostgreSQL only). */
async function othersProbe(build: Build) {
  const backends =
    build !== "bare" && kind === "postgres"
      ? await openBackendProbe(buildDatabase(build).serveEnv.DATABASE_URL!)
      : undefined;
  return {
    async read(): Promise<CpuSplit> {
      const usage = process.cpuUsage();
      const pids = (await backends?.pids()) ?? [];
      return {
        solvers: processCpuMs(fixture.solvers.child.pid!),
        client: (usage.user + usage.system) / 1000,
        // A backend that came or went during the run is missed; the server's pool keeps its connections.
        postgres: pids.reduce((sum, pid) => sum + processCpuMs(pid), 0),
        machine: machineBusyMs(),
      };
    },
    close: async () => backends?.close(),
  };
}

try {
  for (let round = 0; round < rounds; round++) {
    const order: Build[] = round % 2 ? ["baseline", "this"] : ["this", "baseline"];
    if (withBare) order.push("bare");
    if (together) {
      const running: Array<{ build: Build; server: Server }> = [];
      try {
        for (const build of order) running.push({ build, server: await startBuild(build, round) });
        await measure(round, running);
      } finally {
        for (const { server } of running) await server.stop();
      }
      continue;
    }
    for (const build of order) {
      const server = await startBuild(build, round);
      try {
        await measure(round, [{ build, server }]);
      } finally {
        await server.stop();
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = (build: Build) => ({
    cpu: median(figures[build].map((figure) => figure.cpuMsPerQuote)),
    rate: median(figures[build].map((figure) => figure.perSecond)),
  });
  const [a, b] = [summary("this"), summary("baseline")];
  console.log(
    `medians: this build ${a.cpu.toFixed(2)} ms CPU per /quote, ${a.rate.toFixed(1)} /s; baseline ` +
      `${b.cpu.toFixed(2)} ms, ${b.rate.toFixed(1)} /s; CPU ${(a.cpu / b.cpu).toFixed(2)} ×, ` +
      `throughput ${(a.rate / b.rate).toFixed(2)} ×; load average ${load()} at the end`,
  );
  if (withBare) {
    const bare = summary("bare");
    console.log(
      `the bare auction: ${bare.cpu.toFixed(2)} ms CPU per /quote, ${bare.rate.toFixed(1)} /s; this build's CPU ` +
        `${(a.cpu / bare.cpu).toFixed(2)} × the bare auction's, the baseline's ${(b.cpu / bare.cpu).toFixed(2)} ×`,
    );
  }
  if (profiles) {
    for (const file of readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"))) {
      const { busyMs, shares } = summarizeProfile(join(profiles, file), 30);
      console.log(`\n${file}: ${busyMs.toFixed(0)} ms busy`);
      for (const share of shares)
        console.log(
          `  ${(share.share * 100).toFixed(1).padStart(5)} %  ${share.ms.toFixed(0).padStart(6)} ms  ${share.what}`,
        );
    }
  }
} finally {
  await fixture.solvers.stop();
  await chain.stop();
  rmSync(scratch, { recursive: true, force: true });
}

// The partner API suite: registry and points routes of `sluice serve` on the generated dataset (real
// registry, 1,000,000 current receiver rows, 1,000 historical snapshots), each beside two bare Fastify
// baselines measured in the same run, on PostgreSQL and on PGlite. See bench/README.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import type { PartnerDatasetFacts } from "../dataset/partner-dataset.ts";
import { FULL_PLAN, scaledPlan } from "../dataset/plan.ts";
import { receiverAddress } from "../dataset/random.ts";
import { type BenchDatabaseKind, benchDatabase } from "../dataset/store.ts";
import { type FetchedBody, fetchBody } from "../lib/http.ts";
import type { LoadResult } from "../lib/load.ts";
import { loadAverage } from "../lib/machine.ts";
import { meanRequestsPerSecond, measureLoad, type ResourceUse } from "../lib/measured-load.ts";
import { openBackendProbe } from "../lib/pg-backends.ts";
import { type RunningProcess, rssMb, sampleRss, startBare, startSluice } from "../lib/processes.ts";
import { readServerMemory, type ServerMemory } from "../lib/server-memory.ts";
import { type RunConditions, runConditions, type Verdict } from "../lib/suite-report.ts";
import { ensurePartnerDataset } from "./partner-dataset.ts";
import { databaseVersion, formatPartnerReport } from "./partner-report.ts";
import { judgePartnerTargets } from "./partner-targets.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

/** Which process a row measures, and which figures it is compared with. */
export type RouteRole =
  | "bare"
  | "bare-body"
  | "registry"
  | "registry-compressed"
  | "vault-median"
  | "vault-large"
  | "receiver"
  | "receivers-rotating"
  | "total";

export interface RouteMeasurement extends LoadResult, ResourceUse {
  role: RouteRole;
  /** What the table shows: the path, with its placeholder named. */
  label: string;
  path: string;
  connections: number;
  durationSeconds: number;
  /** One response's body as sent (identity unless the route asks for compression), fetched before the run. */
  bodyBytes: number;
  firstByteMs: number;
  lastByteMs: number;
  /** req/s divided by the small bare route's, and by the same-bytes route's (registry rows only). */
  ratioToBare?: number;
  ratioToSameBody?: number;
}

export interface DatabaseRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  dataset: PartnerDatasetFacts;
  /** Server RSS once it is ready (before any request) and its peak over the whole run, in MB. */
  serverIdleRssMb: number;
  serverPeakRssMb: number;
  /** The server's /metrics view of its memory after the last route (heap, external), when available. */
  serverMemoryAtEnd: ServerMemory | undefined;
  /** Mean of the small bare route's two runs (start and end) and of the same-bytes route's. */
  bareRequestsPerSecond: number;
  sameBodyRequestsPerSecond: number;
  routes: RouteMeasurement[];
  targets: Verdict[];
}

export interface PartnerRunOptions extends SuiteOptions {
  /** Connections for the large vault's streamed list (its body is tens of MB). */
  largeVaultConnections: number;
  /** Seconds of unmeasured load before each measured run (JIT, caches, connection pool). */
  warmupSeconds: number;
}

export const partnerSuite: BenchSuite = {
  name: "partner",
  description:
    "registry and points routes (/entities/vaults, /points/vault/{a}/current, /points/receiver/{a}/current, " +
    "/points/total/{block}) against bare Fastify, on the 1M-row partner dataset",
  async run(options) {
    const runOptions: PartnerRunOptions = {
      ...options,
      largeVaultConnections: 1,
      warmupSeconds: Math.min(2, options.durationSeconds),
    };
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const runs: DatabaseRun[] = [];
    for (const kind of options.databases) runs.push(await runOnDatabase(kind, runOptions));
    const report: PartnerReport = {
      suite: "partner",
      ...runConditions(startedAt, loadAtStart, loadAverage()),
      options: runOptions,
      runs,
    };
    return { text: formatPartnerReport(report), json: report };
  },
};

export interface PartnerReport extends RunConditions {
  suite: string;
  options: PartnerRunOptions;
  runs: DatabaseRun[];
}

async function runOnDatabase(kind: BenchDatabaseKind, options: PartnerRunOptions): Promise<DatabaseRun> {
  log(`${kind}: ensuring the dataset`);
  const scale = kind === "pglite" ? options.pgliteScale : 1;
  const dataset = await ensurePartnerDataset(kind, { regenerate: options.regenerate, scale });
  const version = await databaseVersion(kind);
  const target = benchDatabase(kind);
  log(`${kind}: starting sluice serve`);
  // No demo data in the benchmark database; request logs on, as in production.
  const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-"));
  const logFile = join(scratch, "server.log");
  const sluice = await startSluice(
    { ...target.serveEnv, SLUICE_DEMO_DATA: "0", LOG_LEVEL: "info" },
    { logFile },
  ).catch((error: unknown) => {
    // The scratch directory goes; its log's last lines are what explains the failure.
    const tail = readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20).join("\n");
    process.stderr.write(`${tail}\n`);
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  });
  const serverPid = sluice.child.pid!;
  const serverIdleRssMb = rssMb(serverPid);
  const whole = sampleRss(serverPid);
  // PGlite has no backends of its own: its queries run inside the server's process.
  const backends = kind === "postgres" ? await openBackendProbe(target.serveEnv.DATABASE_URL!) : undefined;
  let bare: RunningProcess | undefined;
  try {
    const routes = partnerRoutes(dataset, scale);
    const bodies = new Map<RouteRole, FetchedBody>();
    for (const route of routes) {
      const fetched = await fetchBody(`${sluice.baseUrl}${route.path}`, route.headers);
      if (fetched.status !== 200) {
        throw new Error(
          `${route.path} answered ${fetched.status}: ${fetched.body.subarray(0, 300).toString()}`,
        );
      }
      bodies.set(route.role, fetched);
    }
    // The second baseline sends a byte-identical copy of the vaults body.
    const vaultsBodyFile = join(scratch, "entities-vaults.json");
    writeFileSync(vaultsBodyFile, bodies.get("registry")!.body);
    bare = await startBare({ bodyFile: vaultsBodyFile });
    const bareBody = await fetchBody(`${bare.baseUrl}/bare`);

    const measure = async (
      role: RouteRole,
      label: string,
      url: string,
      pid: number,
      connections: number,
      fetched: FetchedBody,
      request: Pick<PartnerRoute, "headers" | "nextPath"> = {},
    ): Promise<RouteMeasurement> => {
      log(`${kind}: ${label} (${connections} connections, ${options.durationSeconds} s)`);
      // A route's paths are relative to the API's base path, as `url` already is.
      const apiPath = new URL(sluice.baseUrl).pathname;
      const nextPath = request.nextPath && (() => `${apiPath}${request.nextPath!()}`);
      const load = { url, connections, headers: request.headers, nextPath };
      // Only the server's requests reach the database; a baseline run's database CPU is other work.
      const { result, use } = await measureLoad(load, {
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        pid,
        backends: pid === serverPid ? backends : undefined,
      });
      if (result.non2xx > 0 || result.errors > 0) {
        log(`${kind}: ${label}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
      }
      return {
        ...result,
        role,
        label,
        path: new URL(url).pathname,
        connections,
        durationSeconds: options.durationSeconds,
        bodyBytes: fetched.body.length,
        firstByteMs: fetched.firstByteMs,
        lastByteMs: fetched.milliseconds,
        ...use,
      };
    };
    const barePid = bare.child.pid!;
    const runBare = () =>
      measure("bare", "bare Fastify /bare", `${bare!.baseUrl}/bare`, barePid, options.connections, bareBody);
    const runSameBody = () =>
      measure(
        "bare-body",
        "bare Fastify, same bytes as /entities/vaults",
        `${bare!.baseUrl}/body`,
        barePid,
        options.connections,
        bodies.get("registry")!,
      );

    // The baselines run first and again last; their means are the denominators, so drift in the
    // machine's load during the run shows up as a difference between the two runs rather than as a bias.
    const measured: RouteMeasurement[] = [await runBare(), await runSameBody()];
    for (const route of routes) {
      const connections = route.role === "vault-large" ? options.largeVaultConnections : options.connections;
      measured.push(
        await measure(
          route.role,
          route.label,
          `${sluice.baseUrl}${route.path}`,
          serverPid,
          connections,
          bodies.get(route.role)!,
          route,
        ),
      );
    }
    // /metrics is served on the internal listener only.
    const serverMemoryAtEnd = sluice.internalOrigin
      ? await readServerMemory(`${sluice.internalOrigin}/metrics`)
      : undefined;
    measured.push(await runBare(), await runSameBody());

    const mean = (role: RouteRole) => meanRequestsPerSecond(measured.filter((row) => row.role === role));
    const bareRequestsPerSecond = mean("bare");
    const sameBodyRequestsPerSecond = mean("bare-body");
    for (const row of measured) {
      // The large list is judged by MB/s and memory; its requests per second compare with nothing.
      if (row.role === "bare" || row.role === "bare-body" || row.role === "vault-large") continue;
      row.ratioToBare = row.requestsPerSecond / bareRequestsPerSecond;
      if (row.role === "registry") row.ratioToSameBody = row.requestsPerSecond / sameBodyRequestsPerSecond;
    }
    // The per-route samplers read at other instants than the whole-run one; the peak is the highest of all.
    const serverPeakRssMb = Math.max(
      whole.stop().peakMb,
      ...measured
        .filter((row) => row.role !== "bare" && row.role !== "bare-body")
        .map((row) => row.rssPeakMb),
    );
    const run: Omit<DatabaseRun, "targets"> = {
      kind,
      databaseVersion: version,
      dataset,
      serverIdleRssMb,
      serverPeakRssMb,
      serverMemoryAtEnd,
      bareRequestsPerSecond,
      sameBodyRequestsPerSecond,
      routes: measured,
    };
    return { ...run, targets: judgePartnerTargets(run) };
  } finally {
    whole.stop();
    await backends?.close();
    await bare?.stop();
    await sluice.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface PartnerRoute {
  role: RouteRole;
  label: string;
  path: string;
  headers?: Record<string, string>;
  /** The path of each request, when it changes from request to request (`path` is the first one). */
  nextPath?: () => string;
}

/** What browsers and Node's fetch send: a client that takes compressed answers. */
const CLIENT_ACCEPT_ENCODING = { "accept-encoding": "gzip, deflate, br" };

/** The routes the issue names, with the dataset's fixtures filled in, and two views the issue does not name. */
function partnerRoutes(dataset: PartnerDatasetFacts, scale: number): PartnerRoute[] {
  const { medianVault, largeVault, receiver, totalsBlock } = dataset;
  const rotation = receiverRotation(scale);
  return [
    { role: "registry", label: "/entities/vaults", path: "/entities/vaults" },
    {
      role: "registry-compressed",
      label: "/entities/vaults, Accept-Encoding: gzip, deflate, br",
      path: "/entities/vaults",
      headers: CLIENT_ACCEPT_ENCODING,
    },
    {
      role: "vault-median",
      label: `/points/vault/{median}/current (${medianVault.receivers} receivers)`,
      path: `/points/vault/${medianVault.address}/current`,
    },
    {
      role: "receiver",
      label: `/points/receiver/{a}/current (in ${receiver.vaults.length} vaults)`,
      path: `/points/receiver/${receiver.address}/current`,
    },
    {
      role: "receivers-rotating",
      label: `/points/receiver/{a}/current, ${rotation.size.toLocaleString("en")} receivers in turn (uncached)`,
      path: rotation.next(),
      nextPath: rotation.next,
    },
    { role: "total", label: `/points/total/${totalsBlock}`, path: `/points/total/${totalsBlock}` },
    {
      role: "vault-large",
      label: `/points/vault/{large}/current (${largeVault.receivers.toLocaleString("en")} receivers, streamed)`,
      path: `/points/vault/${largeVault.address}/current`,
    },
  ];
}

/**
 * Receivers of the whole pool the dataset draws from, in a seeded random order: far more than the server's
 * per-generation answer cache holds, so nearly every request is a database lookup (most receivers are in one
 * to three vaults; a few in none, which answers []).
 */
function receiverRotation(scale: number): { size: number; next: () => string } {
  const plan = scaledPlan(FULL_PLAN, scale);
  const size = 2 ** plan.receiverPoolBits;
  const random = mulberry32(plan.seed ^ 0x7e57);
  return {
    size,
    next: () => `/points/receiver/${receiverAddress(Math.floor(random() * size), plan.seed)}/current`,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench partner] ${message}\n`);
}

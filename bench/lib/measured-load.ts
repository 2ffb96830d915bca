// One route's measured run as the route tables report it: autocannon after an unmeasured warm-up, with the
// answering process's RSS and the CPU per request of that process, of the PostgreSQL backends serving it and of
// the load generator itself (on a 2-core machine all of them compete for the same cores).
import { cpuDuring, processCpuMs } from "./cpu.ts";
import { type LoadOptions, type LoadResult, runLoad } from "./load.ts";
import { loadAverage } from "./machine.ts";
import type { BackendProbe } from "./pg-backends.ts";
import { sampleRss } from "./processes.ts";
import type { CpuPerRequest } from "./suite-report.ts";

/** What the processes used while a route was loaded, beside autocannon's own figures. */
export interface ResourceUse {
  /** The answering process's RSS when the measured run started, and its peak during it. */
  rssStartMb: number;
  rssPeakMb: number;
  /** The machine's 1-minute load average when the measured run started. */
  loadAverage: number;
  cpuMicrosPerRequest: CpuPerRequest;
}

export async function measureLoad(
  load: Omit<LoadOptions, "durationSeconds">,
  run: {
    warmupSeconds: number;
    durationSeconds: number;
    /** The process answering: the server, or a baseline. */
    pid: number;
    /** The database backends serving that process; none for a baseline, or on PGlite (inside the server). */
    backends: BackendProbe | undefined;
  },
): Promise<{ result: LoadResult; use: ResourceUse }> {
  const { pid, backends } = run;
  await runLoad({ ...load, durationSeconds: run.warmupSeconds });
  const loadAverageAtStart = loadAverage();
  const rss = sampleRss(pid);
  const serverCpuBefore = processCpuMs(pid);
  const clientCpuBefore = process.cpuUsage();
  const { result, cpuMs: databaseCpuMs } = await cpuDuring(
    async () => (backends ? backends.pids() : []),
    () => runLoad({ ...load, durationSeconds: run.durationSeconds }),
  );
  const serverCpuMs = processCpuMs(pid) - serverCpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const memory = rss.stop();
  const perRequest = (milliseconds: number) => (result.total > 0 ? (milliseconds * 1000) / result.total : 0);
  return {
    result,
    use: {
      rssStartMb: memory.startMb,
      rssPeakMb: memory.peakMb,
      loadAverage: loadAverageAtStart,
      cpuMicrosPerRequest: {
        server: perRequest(serverCpuMs),
        database: backends ? perRequest(databaseCpuMs) : undefined,
        client: perRequest((clientCpu.user + clientCpu.system) / 1000),
      },
    },
  };
}

/**
 * The mean req/s of a baseline's runs: each baseline runs before the routes and again after them, so drift in
 * the machine's load shows as a difference between its runs rather than as a bias in the ratios.
 */
export function meanRequestsPerSecond(runs: ReadonlyArray<Pick<LoadResult, "requestsPerSecond">>): number {
  return runs.reduce((total, run) => total + run.requestsPerSecond, 0) / runs.length;
}

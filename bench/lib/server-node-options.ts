// Profiling the server under test in the same setup the figures come from:
//   BENCH_SERVER_CPU_PROFILE=/tmp/sluice-prof npm run bench -- --suite swap
// preloads cpu-profiler.mjs into `sluice serve` (and nothing else), which writes `sluice-<pid>.cpuprofile` into
// that directory when the suite stops the server. Profiling slows the server: such a run's figures are for
// finding where the time goes, not for the README.
import { fileURLToPath } from "node:url";

const PROFILER = fileURLToPath(new URL("./cpu-profiler.mjs", import.meta.url));

export function serverNodeOptions(): Record<string, string> {
  if (!process.env.BENCH_SERVER_CPU_PROFILE && !process.env.BENCH_SERVER_HEAP_PROFILE) return {};
  return { NODE_OPTIONS: `--import ${PROFILER}` };
}

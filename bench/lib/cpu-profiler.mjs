// Preloaded into the server under test (see server-node-options.ts) when BENCH_SERVER_CPU_PROFILE names a
// directory: profiles the whole process with the inspector and writes `sluice-<pid>.cpuprofile` there when it
// exits. Node 20 refuses --cpu-prof in NODE_OPTIONS, and the server is started with a plain `node` command line.
// Plain JavaScript: the server runs a bundle (bin/sluice.mjs), so nothing in it loads TypeScript.
// With BENCH_SERVER_HEAP_PROFILE naming a directory, it also samples allocations (those the collector freed
// included, so short-lived garbage shows where it is made) into `sluice-<pid>.heapprofile`.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const directory = process.env.BENCH_SERVER_CPU_PROFILE;
const heapDirectory = process.env.BENCH_SERVER_HEAP_PROFILE;
if (directory) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  // The main thread's inspector session answers synchronously, so this completes inside the exit handler.
  process.once("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error)
        writeFileSync(join(directory, `sluice-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
if (heapDirectory) {
  const session = new Session();
  session.connect();
  session.post("HeapProfiler.enable");
  session.post("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.once("exit", () => {
    session.post("HeapProfiler.stopSampling", (error, result) => {
      if (!error)
        writeFileSync(
          join(heapDirectory, `sluice-${process.pid}.heapprofile`),
          JSON.stringify(result.profile),
        );
    });
  });
}

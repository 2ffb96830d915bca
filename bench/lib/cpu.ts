// CPU time spent by processes during a run, read from /proc: divided by the requests served it says where
// a route's time goes (the server's event loop, the database's backends, the load generator itself).
import { readFileSync } from "node:fs";

// USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux this runs on.
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds a process has used so far (0 once it is gone). */
export function processCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * CPU milliseconds a process's main thread has used so far (user + system): a Node process's JavaScript and event
 * loop, without its GC helpers, libuv's thread pool or V8's compiler threads. Near one core's worth of the elapsed
 * time, the main thread is what caps the process's throughput.
 */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(path: string): number {
  try {
    const stat = readFileSync(path, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU milliseconds every core of the machine has been busy so far (not idle, not waiting for I/O), from /proc/stat. */
export function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  // cpu  user nice system idle iowait irq softirq steal …
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return ((total - ticks[3]! - ticks[4]!) * 1000) / TICKS_PER_SECOND;
}

/** Measures the CPU milliseconds a changing set of processes uses between `start` and `stop`. */
export async function cpuDuring<T>(
  pids: () => Promise<number[]>,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number }> {
  const before = new Map((await pids()).map((pid) => [pid, processCpuMs(pid)]));
  const result = await work();
  let cpuMs = 0;
  for (const pid of new Set([...before.keys(), ...(await pids())])) {
    // A process that appeared during the run counts from zero; one that exited is not counted.
    cpuMs += Math.max(0, processCpuMs(pid) - (before.get(pid) ?? 0));
  }
  return { result, cpuMs };
}

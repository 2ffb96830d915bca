// A process as /proc knows it, to recognise one recorded earlier (by another run of Sluice, or by a lock file): PIDs
// are reused, so a PID alone never names a process; the host, the boot, its start time (clock ticks after boot) and
// its command line together do.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

export interface ProcessIdentity {
  pid: number;
  /** A PID means nothing on another host. */
  host: string;
  /** /proc/sys/kernel/random/boot_id (start times count from the boot); null where there is no /proc. */
  bootId: string | null;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot; null where there is no /proc. */
  startTime: string | null;
  /** /proc/<pid>/cmdline, its arguments joined by spaces; null where there is no /proc. */
  cmdline: string | null;
}

/** running: that very process is alive on this host; gone: it is not; elsewhere: it ran on another host. */
export type ProcessState = "running" | "gone" | "elsewhere";

/** The running process `pid`; undefined when there is none, or it has exited and waits to be reaped (a zombie). */
export function readProcessIdentity(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X" || !fields[19]) return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0").join(" ");
    return { pid, host: hostname(), bootId: readBootId(), startTime: fields[19], cmdline };
  } catch {
    return undefined;
  }
}

/** This process; without /proc, only its PID and host. */
export function currentProcessIdentity(): ProcessIdentity {
  return (
    readProcessIdentity(process.pid) ?? {
      pid: process.pid,
      host: hostname(),
      bootId: null,
      startTime: null,
      cmdline: null,
    }
  );
}

/** Whether the process `recorded` describes still runs: same host, boot, PID, start time and command line. */
export function processState(recorded: ProcessIdentity): ProcessState {
  if (recorded.host !== hostname()) return "elsewhere";
  if (recorded.startTime === null) return pidExists(recorded.pid) ? "running" : "gone";
  const current = readProcessIdentity(recorded.pid);
  // A process in its exit shows an empty command line while /proc still lists it; with the same start time it is
  // still the recorded process (a PID is not reused within the clock tick it was started in), and it has not exited.
  const same =
    current !== undefined &&
    (recorded.bootId === null || current.bootId === recorded.bootId) &&
    current.startTime === recorded.startTime &&
    (recorded.cmdline === null || current.cmdline === recorded.cmdline || current.cmdline === "");
  return same ? "running" : "gone";
}

export function isRunning(recorded: ProcessIdentity): boolean {
  return processState(recorded) === "running";
}

/** Resolves true once `recorded` no longer runs, false if it still does after `timeoutMs`. */
export async function waitUntilExited(
  recorded: ProcessIdentity,
  timeoutMs: number,
  pollMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(recorded)) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

/** Without /proc only the PID can be checked: signal 0 tests existence (EPERM: it exists, owned by another user). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readBootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

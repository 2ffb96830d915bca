// A process as /proc knows it, to recognise one recorded earlier (by another run of Sluice): PIDs are reused, so a PID
// alone never names a process; the boot, its start time (clock ticks after boot) and its command line together do.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export interface ProcessIdentity {
  pid: number;
  /** /proc/sys/kernel/random/boot_id: start times count from the boot. */
  bootId: string;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot. */
  startTime: string;
  /** /proc/<pid>/cmdline, its arguments joined by spaces. */
  command: string;
}

/** The running process `pid`; undefined when there is none, or it has exited and waits to be reaped (a zombie). */
export function readProcessIdentity(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0").join(" ");
    return { pid, bootId: bootId(), startTime: fields[19]!, command };
  } catch {
    return undefined;
  }
}

/** Whether the process recorded as `recorded` still runs: same PID, boot, start time and command line. */
export function isRunning(recorded: ProcessIdentity): boolean {
  const current = readProcessIdentity(recorded.pid);
  return (
    current !== undefined &&
    current.bootId === recorded.bootId &&
    current.startTime === recorded.startTime &&
    current.command === recorded.command
  );
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

function bootId(): string {
  return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
}

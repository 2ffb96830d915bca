// Who a process is, in a form that survives PID reuse: its PID, its host, and when the kernel started it
// (/proc/<pid>/stat field 22, clock ticks after boot) in which boot. A PID alone is not enough: after a process
// dies the kernel hands its PID to the next process sooner or later.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** /proc/<pid>/stat field 22; null where there is no /proc. */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id; null where there is no /proc. */
  bootId: string | null;
}

/** running: that very process is alive on this host; gone: it is not; elsewhere: it ran on another host. */
export type ProcessState = "running" | "gone" | "elsewhere";

export function currentProcessIdentity(): ProcessIdentity {
  return {
    pid: process.pid,
    host: hostname(),
    startTime: readProcStat(process.pid)?.startTime ?? null,
    bootId: readBootId(),
  };
}

/** Whether the process `identity` describes still runs: same host, same boot, same PID with the same start time. */
export function processState(identity: ProcessIdentity): ProcessState {
  if (identity.host !== hostname()) return "elsewhere";
  const bootId = readBootId();
  if (identity.bootId && bootId && identity.bootId !== bootId) return "gone";
  if (identity.startTime !== null) {
    const stat = readProcStat(identity.pid);
    if (!stat || stat.exited) return "gone";
    return stat.startTime === identity.startTime ? "running" : "gone";
  }
  // Without /proc only the PID can be checked (signal 0 tests existence; EPERM means it exists, owned by another user).
  try {
    process.kill(identity.pid, 0);
    return "running";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "running" : "gone";
  }
}

interface ProcStat {
  startTime: string;
  /** A zombie (exited, not yet reaped by its parent) or dead entry. */
  exited: boolean;
}

function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Field 2 is the command name in parentheses and may itself hold spaces and parentheses: count from the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  if (!state || !startTime) return undefined;
  return { startTime, exited: state === "Z" || state === "X" };
}

function readBootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

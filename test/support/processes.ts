// Processes as /proc shows them, for tests that check what a process left running: whether one is alive, and the
// processes below one (its children and theirs), found without anything the process under test wrote.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { type ProcessIdentity, readProcessIdentity } from "../../src/process/identity.ts";

/** A process is gone when /proc has no entry for it or it is a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Resolves true once `pid` is gone, false if it is still alive after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Every live process below `pid`, with its command line (arguments joined by spaces). */
export function descendantsOf(pid: number): Array<{ pid: number; command: string }> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Exited while being listed.
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const child = queue.shift()!;
    queue.push(...(children.get(child) ?? []));
    if (!isAlive(child)) continue;
    try {
      const command = readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: child, command });
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}

/**
 * A `sleep 60` that lives until signalled, and its identity once it runs `sleep`; added to `children` for the test's
 * cleanup to kill.
 */
export async function startSleeper(
  children: ChildProcess[],
): Promise<{ child: ChildProcess; identity: ProcessIdentity }> {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(child);
  await once(child, "spawn");
  // Until exec has replaced the forked node, /proc shows node's command line.
  while (!readProcessIdentity(child.pid!)?.cmdline?.startsWith("sleep")) await sleep(5);
  return { child, identity: readProcessIdentity(child.pid!)! };
}

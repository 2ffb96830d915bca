// Child processes under test: the Sluice server and the bare Fastify baseline, each in its own process so the
// load generator never shares their event loop; plus an RSS sampler for the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  baseUrl: string;
  stop(): Promise<void>;
}

/** How long `sluice serve` may take to listen: the devnet deploys its contracts on a first start. */
const SLUICE_READY_TIMEOUT_MS = 180_000;

/** Starts `sluice serve` and resolves once it logs its API URL; kills it if it is not ready in time. */
export async function startSluice(env: Record<string, string>): Promise<RunningProcess> {
  const child = spawn(process.execPath, ["bin/sluice.mjs", "serve"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const baseUrl = await Promise.race([
      waitForLine(child, (entry) => (entry.msg === "sluice is serving" ? String(entry.apiUrl) : undefined)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`sluice serve was not ready within ${SLUICE_READY_TIMEOUT_MS / 1000} s`)),
          SLUICE_READY_TIMEOUT_MS,
        );
      }),
    ]);
    return { child, baseUrl, stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the baseline process: `${origin}/bare` (a small JSON object) and, with `bodyFile`, `${origin}/body`
 * (that file's bytes). `baseUrl` is the origin.
 */
export async function startBare(options: { bodyFile?: string } = {}): Promise<RunningProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/bare-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...(options.bodyFile ? { BARE_BODY_FILE: options.bodyFile } : {}) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await waitForLine(child, (entry) =>
    entry.msg === "bare listening" ? String(entry.url) : undefined,
  );
  return { child, baseUrl, stop: () => stop(child) };
}

async function waitForLine(
  child: ChildProcess,
  pick: (entry: Record<string, unknown>) => string | undefined,
): Promise<string> {
  const stdout = child.stdout;
  if (!stdout) throw new Error("child has no stdout");
  let value: string | undefined;
  for await (const line of createInterface({ input: stdout })) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    value = pick(entry);
    if (value) break;
  }
  if (!value) throw new Error(`process ${child.pid} exited before it was ready`);
  // Request logs stay on (production logs every request too); the bench drains and discards them. Leaving
  // the loop closed the line reader, which pauses the pipe: resume it, or the child's synchronous log
  // writes would block on a full pipe and the benchmark would measure that.
  stdout.resume();
  return value;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

/** A process's resident memory (VmRSS) in MB right now, or 0 once it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory until stopped; reports the first sample and the peak, in MB. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): { startMb: number; peakMb: number } } {
  const startMb = rssMb(pid);
  let peakMb = startMb;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakMb = Math.max(peakMb, rssMb(pid));
      return { startMb, peakMb };
    },
  };
}

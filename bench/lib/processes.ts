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

/** Starts `sluice serve` and resolves once it logs its API URL. */
export async function startSluice(env: Record<string, string>): Promise<RunningProcess> {
  const child = spawn(process.execPath, ["bin/sluice.mjs", "serve"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await waitForLine(child, (entry) =>
    entry.msg === "sluice is serving" ? String(entry.apiUrl) : undefined,
  );
  return { child, baseUrl, stop: () => stop(child) };
}

/** Starts the baseline: a bare Fastify route returning a small JSON object. */
export async function startBare(): Promise<RunningProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/lib/bare-server.ts"], {
    cwd: ROOT,
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
) {
  if (!child.stdout) throw new Error("child has no stdout");
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    // Request logs stay on (production logs every request too); the bench drains and discards them.
    const value = pick(entry);
    if (value) {
      child.stdout.resume();
      return value;
    }
  }
  throw new Error(`process ${child.pid} exited before it was ready`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

/** Samples a process's resident memory (VmRSS) until stopped; reports the peak in MB. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peakKb = 0;
  const read = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match?.[1]) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process is gone; keep the peak seen so far.
    }
  };
  read();
  const timer = setInterval(read, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peakKb / 1024;
    },
  };
}

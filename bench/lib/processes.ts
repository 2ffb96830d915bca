// Child processes under test: the Sluice server and the bare Fastify baseline, each in its own process so the
// load generator never shares their event loop; plus an RSS sampler for the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { nodeFlagsOf } from "./served-build.ts";
import { serverNodeOptions } from "./server-node-options.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  baseUrl: string;
  /** The internal listener's origin (the internal API, /metrics), when the process is a Sluice. */
  internalOrigin?: string;
  stop(): Promise<void>;
}

/** How long `sluice serve` may take to listen: the devnet deploys its contracts on a first start. */
const SLUICE_READY_TIMEOUT_MS = 180_000;

/**
 * Starts `sluice serve` with its stdout (the JSON logs, one line per request at info) appended to `logFile`,
 * and resolves once it logs its API URL; kills it if it is not ready in time. A file rather than a pipe: a
 * pipe would have to be drained by a process on the same cores, and the load generator would pay for it.
 */
/**
 * The request limits of every suite's server, set explicitly: a suite loads one server from one address far past any
 * client's limits, and measures the server, not its limits (the limits suite sets its own).
 */
export const BENCH_LIMITS_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_QUOTES_PER_MINUTE: "100000000",
  RATE_LIMIT_READS_PER_SECOND: "100000000",
  QUOTE_MAX_IN_FLIGHT: "100000",
  SHED_EVENT_LOOP_DELAY_MS: "0",
};

export async function startSluice(
  env: Record<string, string>,
  options: { logFile: string },
): Promise<RunningProcess> {
  const logFd = openSync(options.logFile, "a");
  const child = spawn(process.execPath, [...nodeFlagsOf(ROOT), "bin/sluice.mjs", "serve"], {
    cwd: ROOT,
    // The internal listener on a free port too: a bench Sluice never meets another one's (or a devnet's) 8081.
    env: {
      ...process.env,
      PORT: "0",
      INTERNAL_PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ...BENCH_LIMITS_ENV,
      ...env,
    },
    stdio: ["ignore", logFd, "inherit"],
  });
  closeSync(logFd);
  try {
    let internalOrigin: string | undefined;
    const baseUrl = await waitForLogLine(child, options.logFile, (entry) => {
      if (entry.msg !== "sluice is serving") return undefined;
      if (typeof entry.internalApiUrl === "string") internalOrigin = new URL(entry.internalApiUrl).origin;
      return String(entry.apiUrl);
    });
    return { child, baseUrl, ...(internalOrigin ? { internalOrigin } : {}), stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

async function waitForLogLine(
  child: ChildProcess,
  logFile: string,
  pick: (entry: Record<string, unknown>) => string | undefined,
): Promise<string> {
  const deadline = Date.now() + SLUICE_READY_TIMEOUT_MS;
  let scanned = 0;
  while (Date.now() < deadline) {
    const text = readFileSync(logFile, "utf8");
    const complete = text.lastIndexOf("\n") + 1;
    for (const line of text.slice(scanned, complete).split("\n")) {
      const value = line.startsWith("{") ? pickJson(line, pick) : undefined;
      if (value) return value;
    }
    scanned = complete;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `sluice serve exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${logFile}`,
      );
    }
    await sleep(200);
  }
  throw new Error(`sluice serve was not ready within ${SLUICE_READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
}

function pickJson(line: string, pick: (entry: Record<string, unknown>) => string | undefined) {
  try {
    return pick(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/**
 * Starts the baseline process: `${origin}/bare` (a small JSON object) and, with `bodyFile`, `${origin}/body`
 * (that file's bytes). `baseUrl` is the origin.
 */
export function startBare(options: { bodyFile?: string } = {}): Promise<RunningProcess> {
  return startBareScript(
    "bench/lib/bare-server.ts",
    options.bodyFile ? { BARE_BODY_FILE: options.bodyFile } : {},
  );
}

/**
 * Starts bare-auction-server.ts, asking these solvers: its `/quote` is at the origin, `baseUrl`. Profiled like a
 * server under test (BENCH_SERVER_CPU_PROFILE), so its profile reads beside theirs.
 */
export function startBareAuction(solvers: Array<{ url: string; secret: string }>): Promise<RunningProcess> {
  return startBareScript("bench/lib/bare-auction-server.ts", {
    BARE_AUCTION_SOLVERS: JSON.stringify(solvers),
    // Beside tsx's own --import, which the command line holds.
    ...serverNodeOptions(),
  });
}

async function startBareScript(script: string, env: Record<string, string>): Promise<RunningProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
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
  // Leaving the loop closed the line reader, which pauses the pipe: resume it (discarding anything more the
  // child writes), or its writes would block on a full pipe.
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

// `sluice serve` in a child process, ready once it answers GET /api/v1/health on a port chosen here. Unlike
// processes.ts `startSluice`, readiness does not depend on reading the server's log: its stdout may be buffered
// (a request log written in blocks shows its first line only once a block is full), and must still go to a file
// that no process on the same cores has to drain.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../src/app/listen-address.ts";
import type { BenchDatabase } from "./bench-databases.ts";
import { BENCH_LIMITS_ENV, type RunningProcess } from "./processes.ts";
import { nodeFlagsOf, servedRoot } from "./served-build.ts";
import { serverNodeOptions } from "./server-node-options.ts";
import type { WrittenDeployment } from "./sluice-deployment.ts";

/** How long the server may take to answer: the devnet deploys its contracts on a first start. */
const READY_TIMEOUT_MS = 180_000;
/**
 * After /health answers, the service starts its swap runtime (binds the database to the chain, starts the
 * workers) before it calls itself serving; this leaves that a moment rather than guessing at its log.
 */
const SETTLE_MS = 1000;

export async function startSluiceServer(
  env: Record<string, string>,
  options: { logFile: string },
): Promise<RunningProcess> {
  const port = await freePort("127.0.0.1");
  // The internal listener (internal API, /metrics) on a free port too, never the default 8081 another Sluice may hold.
  const internalPort = await freePort("127.0.0.1");
  const logFd = openSync(options.logFile, "a");
  const child = spawn(process.execPath, [...nodeFlagsOf(), "bin/sluice.mjs", "serve"], {
    // Another checkout's build (BENCH_SLUICE_ROOT, read at each start) serves an A/B run of two builds.
    cwd: servedRoot(),
    // Every suite's server: request logs at info, no demo data, the profiler when BENCH_SERVER_CPU_PROFILE asks.
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SLUICE_DEMO_DATA: "0",
      ...BENCH_LIMITS_ENV,
      ...env,
      ...nodeOptions(env.NODE_OPTIONS),
      PORT: String(port),
      INTERNAL_PORT: String(internalPort),
    },
    stdio: ["ignore", logFd, "inherit"],
  });
  closeSync(logFd);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `sluice serve exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${options.logFile}`,
      );
    }
    const healthy = await fetch(`${origin}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) {
      await sleep(SETTLE_MS);
      return { child, baseUrl: `${origin}/api/v1`, internalOrigin: `http://127.0.0.1:${internalPort}`, stop };
    }
    await sleep(200);
  }
  await stop();
  throw new Error(
    `sluice serve did not answer /health within ${READY_TIMEOUT_MS / 1000} s; see ${options.logFile}`,
  );
}

/** `sluice serve` as an operator runs it, on a file from sluice-deployment.ts, on a suite's own database. */
export function serveDeployment(
  database: Pick<BenchDatabase, "serveEnv">,
  deployment: Pick<WrittenDeployment, "serveEnv">,
  logFile: string,
): Promise<RunningProcess> {
  return startSluiceServer({ ...database.serveEnv, ...deployment.serveEnv }, { logFile });
}

/** The profiler's NODE_OPTIONS (BENCH_SERVER_CPU_PROFILE) beside a suite's own (a heap limit, say): both apply. */
function nodeOptions(suite: string | undefined): Record<string, string> {
  const options = [serverNodeOptions().NODE_OPTIONS, suite].filter(Boolean);
  return options.length > 0 ? { NODE_OPTIONS: options.join(" ") } : {};
}

// `sluice serve` on the devnet as real processes, for the restart and shutdown tests: started with node or through
// `npm run start`, each start in a process group of its own (so a test signals the group as a terminal does), its
// JSON log lines kept, and the server, anvil and anvil's watchdog found below it in /proc.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "../support/cli.ts";
import { descendantsOf, isAlive, waitUntilGone } from "../support/processes.ts";

export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface DevnetProcess {
  /** What was spawned, the leader of its own process group: the server, or npm. */
  leader: ChildProcess;
  serverPid: number;
  anvilPid: number;
  watchdogPid: number | undefined;
  apiUrl: string;
  /** Every JSON line on stdout so far. */
  logs: LogLine[];
  /** Everything else the group printed: stderr, and npm's own lines on stdout. */
  otherOutput(): string;
  /** The leader's exit: its code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once every process of the group that wrote to stdout has closed it (all its lines are in `logs`). */
  outputClosed: Promise<void>;
  /** The first log line `matches` accepts, waiting for it (up to 60 s). */
  waitForLog(matches: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  signalGroup(signal: NodeJS.Signals): void;
}

/** The variables a developer's shell might carry that would change what `serve` does. */
export const CLEAN_ENV = {
  DATABASE_URL: "",
  DEPLOYMENT: "",
  DEPLOYMENT_FILE: "",
  RPC_URLS: "",
  RPC_URL: "",
  RPC_WS_URL: "",
  PROTOCOL_SIGNER_KEY: "",
  PUBLIC_URL: "",
};

/** How the tests start `sluice serve`: that clean environment, both listeners on free ports, request logs at info. */
export const SERVE_ENV = {
  ...CLEAN_ENV,
  PORT: "0",
  INTERNAL_PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
};

const started = new Set<DevnetProcess>();

/**
 * Starts the devnet on `dataDir` (no demo partner data: not what these tests are about) and resolves once its
 * start-up has finished: it serves, and the demo discount was published (or refused).
 */
export async function startDevnetProcess(
  dataDir: string,
  options: { via?: "node" | "npm" } = {},
): Promise<DevnetProcess> {
  const command =
    options.via === "npm" ? ["npm", ["run", "start"]] : [process.execPath, ["bin/sluice.mjs", "serve"]];
  const leader = spawn(command[0] as string, command[1] as string[], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...SERVE_ENV,
      DATA_DIR: dataDir,
      SLUICE_DEMO_DATA: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    leader.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const logs: LogLine[] = [];
  let other = "";
  const waiters = new Set<{ matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const lines = createInterface({ input: leader.stdout! });
  const outputClosed = new Promise<void>((resolve) => lines.once("close", resolve));
  lines.on("line", (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      other += `${text}\n`;
      return;
    }
    logs.push(line);
    for (const waiter of waiters) {
      if (!waiter.matches(line)) continue;
      waiters.delete(waiter);
      waiter.resolve(line);
    }
  });
  leader.stderr!.on("data", (chunk) => {
    other += chunk;
  });
  const waitForLog = (matches: (line: LogLine) => boolean, what: string) => {
    const seen = logs.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const waiter = { matches, resolve };
      waiters.add(waiter);
      const fail = (why: string) => {
        if (!waiters.delete(waiter)) return;
        const tail = logs.slice(-10).map((line) => JSON.stringify(line).slice(0, 300));
        reject(new Error(`no log line for ${what}: ${why}\n${tail.join("\n")}\n${other.slice(-2000)}`));
      };
      // A guard against hanging forever, not a timing assertion.
      setTimeout(() => fail("not within 60 s"), 60_000).unref();
      void exited.then(({ code, signal }) => setTimeout(() => fail(`exited (${code ?? signal})`), 100));
    });
  };

  const serving = await waitForLog((line) => line.msg === "sluice is serving", "sluice is serving");
  await waitForLog(
    (line) =>
      typeof line.msg === "string" && line.msg.startsWith("devnet: ") && /demo discount/.test(line.msg),
    "the demo discount's outcome",
  );
  const below = descendantsOf(leader.pid!);
  // Under npm: node, not the shell npm runs the script in (`sh -c node bin/sluice.mjs serve`).
  const server =
    options.via === "npm"
      ? below.find((p) => /^(\S*\/)?node /.test(p.command) && p.command.endsWith("bin/sluice.mjs serve"))
      : undefined;
  if (options.via === "npm" && !server) throw new Error(`no server below npm: ${JSON.stringify(below)}`);
  const anvil = below.find((p) => /\/anvil /.test(p.command));
  const watchdog = below.find((p) => p.command.includes("anvil-watchdog"));
  if (!anvil) throw new Error(`no anvil below ${leader.pid}: ${JSON.stringify(below)}`);
  const run: DevnetProcess = {
    leader,
    serverPid: server?.pid ?? leader.pid!,
    anvilPid: anvil.pid,
    watchdogPid: watchdog?.pid,
    apiUrl: String(serving.apiUrl),
    logs,
    otherOutput: () => other,
    exited,
    outputClosed,
    waitForLog,
    signalGroup: (signal) => process.kill(-leader.pid!, signal),
  };
  started.add(run);
  return run;
}

/** Stops whatever a test left running (each by its own PID), anvil last and with SIGINT. */
export async function stopDevnetProcesses(): Promise<void> {
  for (const run of started) {
    for (const pid of [run.leader.pid!, run.serverPid, run.watchdogPid]) {
      if (pid !== undefined && isAlive(pid)) process.kill(pid, "SIGKILL");
    }
    if (isAlive(run.anvilPid)) {
      process.kill(run.anvilPid, "SIGINT");
      if (!(await waitUntilGone(run.anvilPid, 10_000))) process.kill(run.anvilPid, "SIGKILL");
    }
  }
  started.clear();
}

// Runs anvil, the local EVM node whose binary ships inside the npm package @foundry-rs/anvil-linux-amd64.
// It binds 127.0.0.1 on an ephemeral port (`--port 0`, then the real port is read from its "Listening on" line),
// so any number of anvils (one per test worker, a devnet beside them) never collide on ports; it writes no file
// unless `stateFile` is given (`--state FILE`: loaded at start, dumped on SIGINT), so they don't collide on files.
//
// Lifetime: `stop()` sends SIGINT and waits for the exit (so the state file is written). If the parent process
// exits without stopping it, an `exit` hook sends SIGINT; if the parent dies by a signal or SIGKILL (no hook
// runs), a tiny detached watchdog (`sh`, polling the parent's pid once a second) sends SIGINT instead. anvil runs in
// a process group of its own: a signal to the parent's group (Ctrl-C, `kill -- -PGID`) reaches the parent, which
// stops its users of the chain first and anvil last, never anvil while they still need it; and a SIGKILL of that
// group leaves anvil to the watchdog's SIGINT, so it still writes its state.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

export interface AnvilOptions {
  /** Interval mining: a block every N seconds (`--block-time`). Without it, every transaction mines a block. */
  blockTime?: number;
  /** `--state FILE`: load the chain from FILE if it exists, dump it there on stop. */
  stateFile?: string;
  chainId?: number;
  mnemonic?: string;
  /** Number of dev accounts (`--accounts`, default 10). */
  accounts?: number;
  /** ETH per dev account (`--balance`). */
  balance?: number;
  host?: string;
  /** Further anvil arguments, appended as given. */
  args?: readonly string[];
  /** How long to wait for "Listening on" (default 30 s). */
  startTimeoutMs?: number;
  /** Every line anvil prints (stdout and stderr). Output is always drained so anvil never blocks on a pipe. */
  onOutput?: (line: string) => void;
}

export interface AnvilInstance {
  rpcUrl: string;
  host: string;
  port: number;
  process: ChildProcess;
  /** Resolves with the exit code (or null after a signal) when anvil has exited. */
  exited: Promise<number | null>;
  /** The watchdog that stops anvil if this process dies first (a shell; none if it could not be started). */
  watchdogPid: number | undefined;
  /** SIGINT, then wait for exit (SIGKILL after `timeoutMs`, default 15 s). Safe to call more than once. */
  stop(timeoutMs?: number): Promise<void>;
}

/** The anvil executable inside the npm package. */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@foundry-rs/anvil-linux-amd64/package.json");
  const bin = join(dirname(pkg), "bin", "anvil");
  if (!existsSync(bin)) throw new Error(`anvil binary not found at ${bin}`);
  return bin;
}

export function anvilArgs(options: AnvilOptions = {}): string[] {
  const args = ["--host", options.host ?? "127.0.0.1", "--port", "0"];
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.stateFile !== undefined) args.push("--state", options.stateFile);
  if (options.chainId !== undefined) args.push("--chain-id", String(options.chainId));
  if (options.mnemonic !== undefined) args.push("--mnemonic", options.mnemonic);
  if (options.accounts !== undefined) args.push("--accounts", String(options.accounts));
  if (options.balance !== undefined) args.push("--balance", String(options.balance));
  if (options.args) args.push(...options.args);
  return args;
}

const LISTENING = /Listening on ([0-9.]+|\[[0-9a-fA-F:]+\]):(\d+)/;
const WATCHDOG = `while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
kill -0 "$1" 2>/dev/null || kill -INT "$2" 2>/dev/null`;

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilInstance> {
  const child = spawn(anvilBinaryPath(), anvilArgs(options), {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const tail: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const listening = new Promise<{ host: string; port: number }>((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      reject(new Error(`anvil did not start within ${timeoutMs} ms:\n${tail.join("\n")}`));
    }, timeoutMs);
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      options.onOutput?.(line);
      const match = LISTENING.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ host: match[1]!.replace(/^\[|\]$/g, ""), port: Number(match[2]) });
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited (code ${code}) before listening:\n${tail.join("\n")}`));
    });
  });

  const watchdog =
    child.pid !== undefined
      ? spawn("/bin/sh", ["-c", WATCHDOG, "anvil-watchdog", String(process.pid), String(child.pid)], {
          detached: true,
          stdio: "ignore",
        })
      : undefined;
  watchdog?.on("error", () => {});
  watchdog?.unref();

  let done = false;
  const onParentExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    watchdog?.kill("SIGKILL");
  };
  process.once("exit", onParentExit);
  void exited.then(() => {
    done = true;
    process.removeListener("exit", onParentExit);
    watchdog?.kill("SIGKILL");
  });

  let stopping: Promise<void> | undefined;
  const stop = (timeoutMs = 15_000): Promise<void> => {
    stopping ??= (async () => {
      if (done) return;
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  try {
    const { host, port } = await listening;
    const urlHost = host.includes(":") ? `[${host}]` : host;
    return {
      rpcUrl: `http://${urlHost}:${port}`,
      host,
      port,
      process: child,
      exited,
      watchdogPid: watchdog?.pid,
      stop,
    };
  } catch (error) {
    await stop(2_000);
    throw error;
  }
}

// The real `sluice` binary as a child process, for the command-line tests, and the output of any child process.
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

export const SLUICE_BIN = fileURLToPath(new URL("../../bin/sluice.mjs", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface SluiceRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sluice <args>` in the repository root to its end. Its environment is this process's with LOG_LEVEL=silent
 * and without DATABASE_URL (a test names the database it means), then `env` (an undefined value removes a variable).
 */
export function runSluice(args: string[], env: Record<string, string | undefined> = {}): Promise<SluiceRun> {
  return startSluice(args, env).exited;
}

export interface SluiceProcess {
  child: ChildProcess;
  /** What it wrote so far. */
  output(): { stdout: string; stderr: string };
  /** Its exit code (null when a signal ended it) and everything it wrote. */
  exited: Promise<SluiceRun>;
}

/** Starts `sluice <args>` as runSluice does, for a test that acts while it runs. */
export function startSluice(args: string[], env: Record<string, string | undefined> = {}): SluiceProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
  delete childEnv.DATABASE_URL;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[key];
    else childEnv[key] = value;
  }
  const child = spawn(process.execPath, [SLUICE_BIN, ...args], { cwd: REPO_ROOT, env: childEnv });
  const output = collectOutput(child);
  const exited = new Promise<SluiceRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, ...output() }));
  });
  return { child, output, exited };
}

/** Keeps what `child` writes to stdout and stderr; the result reads all of it so far. */
export function collectOutput(child: {
  stdout: Readable;
  stderr: Readable;
}): () => { stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return () => ({ stdout, stderr });
}

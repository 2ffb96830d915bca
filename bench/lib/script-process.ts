// A bench helper script (a .ts file run through tsx) in a process of its own, so what it does — answering as
// a solver, for instance — never shares an event loop with the load generator or the server under test. The
// script announces itself with one JSON line on stdout whose `msg` is `readyMessage`; that line is returned.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ScriptProcess<Ready> {
  child: ChildProcess;
  ready: Ready;
  stop(): Promise<void>;
}

export async function startScript<Ready>(
  script: string,
  options: { env?: Record<string, string>; readyMessage: string; args?: readonly string[] },
): Promise<ScriptProcess<Ready>> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  const stdout = child.stdout;
  if (!stdout) throw new Error("child has no stdout");
  let ready: Ready | undefined;
  for await (const line of createInterface({ input: stdout })) {
    try {
      const entry = JSON.parse(line) as { msg?: string };
      if (entry.msg === options.readyMessage) {
        ready = entry as Ready;
        break;
      }
    } catch {
      // not a JSON line: keep reading
    }
  }
  if (ready === undefined) {
    await stop();
    throw new Error(`${script} exited before it was ready`);
  }
  // Leaving the loop paused the pipe: resume it (discarding further output) so the child never blocks on it.
  stdout.resume();
  return { child, ready, stop };
}

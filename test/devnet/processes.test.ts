// The record of the processes a devnet runs, read at the next start: a leftover process is stopped only when it is
// the one recorded (PID, boot, start time and command line: PIDs are reused), and a record whose owner still runs
// stops the start instead (another server uses this devnet).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DevnetInUseError, stopLeftoverProcesses } from "../../src/devnet/processes.ts";
import { silentLogger } from "../../src/logger.ts";
import { readProcessIdentity } from "../../src/process/identity.ts";
import { writeJsonAtomically } from "../../src/shared/json-file.ts";
import { isAlive, startSleeper } from "../support/processes.ts";
import { temporaryDataDir } from "./support.ts";

describe("leftover devnet processes", () => {
  const dir = temporaryDataDir();
  const path = join(dir.path, "processes.json");
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    dir.remove();
  });

  /** A process that has exited: what a killed server's record names. */
  async function exitedOwner() {
    const child = spawn("true", { stdio: "ignore" });
    await once(child, "spawn");
    const identity = { ...readProcessIdentity(process.pid)!, pid: child.pid! };
    await once(child, "exit");
    return identity;
  }

  it("stops a recorded child whose identity matches, with its stop signal", async () => {
    const { child, identity } = await startSleeper(children);
    writeJsonAtomically(path, {
      owner: await exitedOwner(),
      children: [{ role: "anvil", stopSignal: "SIGINT", process: identity }],
    });
    const exited = once(child, "exit");
    await stopLeftoverProcesses(path, dir.path, silentLogger());
    expect(isAlive(child.pid!)).toBe(false);
    expect((await exited)[1]).toBe("SIGINT");
  });

  it("leaves alone a process that reuses a recorded PID (another start time or command line)", async () => {
    const { child, identity } = await startSleeper(children);
    writeJsonAtomically(path, {
      owner: await exitedOwner(),
      children: [
        { role: "anvil", stopSignal: "SIGINT", process: { ...identity, startTime: "1" } },
        {
          role: "anvil watchdog",
          stopSignal: "SIGKILL",
          process: { ...identity, cmdline: "/bin/sh -c watchdog" },
        },
      ],
    });
    await stopLeftoverProcesses(path, dir.path, silentLogger());
    expect(isAlive(child.pid!)).toBe(true);
  });

  it("refuses to start while the recorded owner runs, and signals none of its children", async () => {
    const owner = await startSleeper(children);
    const anvil = await startSleeper(children);
    writeJsonAtomically(path, {
      owner: owner.identity,
      children: [{ role: "anvil", stopSignal: "SIGINT", process: anvil.identity }],
    });
    await expect(stopLeftoverProcesses(path, dir.path, silentLogger())).rejects.toThrow(DevnetInUseError);
    await expect(stopLeftoverProcesses(path, dir.path, silentLogger())).rejects.toThrow(
      new RegExp(`in use by process ${owner.identity.pid} `),
    );
    expect(isAlive(anvil.child.pid!)).toBe(true);
  });
});

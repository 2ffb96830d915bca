// A recorded process is the same process until it has exited: PIDs are reused, so identity is PID, boot, start time
// and command line — but a process in its exit shows an empty command line while /proc still lists it running,
// and that is still the recorded process, not another one.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { processState, waitUntilExited } from "../../src/process/identity.ts";
import { isAlive, startSleeper } from "../support/processes.ts";

describe("process identity", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  it("knows a running process by its identity, and not one with another start time or command line", async () => {
    const { identity } = await startSleeper(children);
    expect(processState(identity)).toBe("running");
    expect(processState({ ...identity, startTime: "1" })).toBe("gone");
    expect(processState({ ...identity, cmdline: "sleep 61" })).toBe("gone");
    expect(processState({ ...identity, host: "elsewhere.invalid" })).toBe("elsewhere");
  });

  // Seen in CI: a leftover anvil counted as stopped while it was still exiting. /proc shows an exiting process's
  // command line empty before its state turns to zombie; watched closely, nearly every signalled sleep shows it, so
  // 20 rounds catch it. Exiting only moves forward (running → zombie → gone), so once its state reads "gone" the
  // process must read gone to /proc as well.
  it("counts a signalled process as running until it has exited, through its exit", async () => {
    for (let round = 0; round < 20; round++) {
      const { child, identity } = await startSleeper(children);
      const exited = once(child, "exit");
      process.kill(child.pid!, "SIGINT");
      for (;;) {
        const state = processState(identity);
        const alive = isAlive(child.pid!);
        if (state === "gone") expect(alive, `round ${round}: gone while /proc lists it alive`).toBe(false);
        if (!alive) break;
      }
      expect(await waitUntilExited(identity, 5_000)).toBe(true);
      await exited;
    }
  });
});

// The parent watch of a server started by npm: it reports once, with the parent it had, when the parent PID changes
// (the process was re-parented after its parent exited); only npm-started processes are watched.
import { describe, expect, it } from "vitest";
import { startedByNpm, watchParent } from "../../src/process/orphan.ts";

describe("watchParent", () => {
  it("calls back once, with the original parent, when the parent PID changes", async () => {
    const parents = [100, 100, 100, 1, 1, 7];
    const reported: number[] = [];
    await new Promise<void>((resolve) => {
      watchParent({
        parentPid: () => parents.shift() ?? 1,
        intervalMs: 5,
        onOrphaned: (parentPid) => {
          reported.push(parentPid);
          resolve();
        },
      });
    });
    // Later changes (1 → 7) are not reported again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reported).toEqual([100]);
  });

  it("never calls back once stopped", async () => {
    let calls = 0;
    const stop = watchParent({ parentPid: () => calls++, intervalMs: 5, onOrphaned: () => expect.fail() });
    stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(1);
  });

  it("watches only what npm started", () => {
    expect(startedByNpm({ npm_lifecycle_event: "start" })).toBe(true);
    expect(startedByNpm({})).toBe(false);
  });
});

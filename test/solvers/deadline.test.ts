// The round's deadline: ends what still waits when it passes, nothing it was told to forget, and a latecomer at once.
import { describe, expect, it } from "vitest";
import { SolverDeadline } from "../../src/solvers/deadline.ts";

describe("SolverDeadline", () => {
  it("ends every waiter still waiting when it closes, once, and a waiter added afterwards at once", () => {
    const deadline = new SolverDeadline();
    const ended: string[] = [];
    const waiter = (name: string) => ({ end: () => ended.push(name) });
    const answered = waiter("answered");
    deadline.wait(waiter("open"));
    deadline.wait(answered);
    deadline.forget(answered);
    expect(deadline.closed).toBe(false);
    deadline.close();
    deadline.close();
    expect(deadline.closed).toBe(true);
    expect(ended).toEqual(["open"]);
    deadline.wait(waiter("late"));
    expect(ended).toEqual(["open", "late"]);
  });

  it("closes by its own timer", async () => {
    const deadline = SolverDeadline.after(20);
    expect(deadline.closed).toBe(false);
    await expect.poll(() => deadline.closed, { timeout: 1000 }).toBe(true);
  });
});

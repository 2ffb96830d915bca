// A connection budget runs at most `limit` reads at once, the others in the order they asked, each after the event
// loop's pending I/O (a read that fails hands its turn on too).
import { describe, expect, it } from "vitest";
import { ConnectionBudget } from "../../src/db/connection-budget.ts";

describe("ConnectionBudget", () => {
  it("runs at most its limit at once, the rest in order, and hands a failed read's turn on", async () => {
    const budget = new ConnectionBudget(2);
    const started: number[] = [];
    const finish = new Map<number, (fail: boolean) => void>();
    const reads = [0, 1, 2, 3, 4].map((n) =>
      budget.run(
        () =>
          new Promise<number>((resolve, reject) => {
            started.push(n);
            finish.set(n, (fail) => (fail ? reject(new Error(`read ${n}`)) : resolve(n)));
          }),
      ),
    );
    const settled = async () => new Promise((resolve) => setImmediate(resolve));
    await settled();
    expect(started).toEqual([0, 1]);
    expect(budget.waiting).toBe(3);
    finish.get(1)!(true);
    await expect(reads[1]).rejects.toThrow("read 1");
    await settled();
    expect(started).toEqual([0, 1, 2]);
    finish.get(0)!(false);
    finish.get(2)!(false);
    await settled();
    await settled();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finish.get(3)!(false);
    finish.get(4)!(false);
    expect(await Promise.all([reads[0], reads[2], reads[3], reads[4]])).toEqual([0, 2, 3, 4]);
    expect(budget.waiting).toBe(0);
    // Nothing held: the next read starts at once.
    expect(await budget.run(async () => "free")).toBe("free");
  });

  it("lets pending I/O run between one read's end and the next read's start", async () => {
    const budget = new ConnectionBudget(1);
    const order: string[] = [];
    const first = budget.run(async () => {
      setImmediate(() => order.push("I/O"));
      order.push("first");
    });
    const second = budget.run(async () => {
      order.push("second");
    });
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "I/O", "second"]);
  });

  it("refuses a budget of no connections", () => {
    expect(() => new ConnectionBudget(0)).toThrow(RangeError);
  });
});

// The loop the indexer and the points engine share: passes at heads under the lease, standing by without it, a lost
// lease dropped and taken again, a failed pass retried by the clock, and a stop that waits for the pass in flight.
import { afterEach, describe, expect, it } from "vitest";
import type { HeadListener, HeadSource } from "../../src/chain/heads.ts";
import { type HeadLoopLease, LeasedHeadLoop } from "../../src/chain/leased-head-loop.ts";
import { silentLogger } from "../../src/logger.ts";

class FakeLease implements HeadLoopLease {
  lost: string | undefined;
  released = false;
  constructor(readonly epoch: bigint) {}
  async release(): Promise<void> {
    this.released = true;
  }
}

class LeaseLost extends Error {}

class FakeHeads implements HeadSource {
  readonly #listeners = new Set<HeadListener>();
  newest = 0n;
  onHead(listener: HeadListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  isCurrent(blockNumber: bigint): boolean {
    return blockNumber === this.newest;
  }
  pushedBlock(): undefined {
    return undefined;
  }
  push(head: bigint): void {
    this.newest = head;
    for (const listener of this.#listeners) listener(head);
  }
  get listeners(): number {
    return this.#listeners.size;
  }
}

interface Harness {
  loop: LeasedHeadLoop<FakeLease>;
  heads: FakeHeads;
  passes: Array<{ epoch: bigint; head: bigint | undefined }>;
  changes: boolean[];
  leases: FakeLease[];
}

const loops: LeasedHeadLoop<FakeLease>[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.stop()));
});

function harness(options: {
  available?: () => boolean;
  pass?: (lease: FakeLease, head: bigint | undefined) => Promise<void>;
  withHeads?: boolean;
}): Harness {
  const heads = new FakeHeads();
  const passes: Harness["passes"] = [];
  const changes: boolean[] = [];
  const leases: FakeLease[] = [];
  let epoch = 0n;
  const loop = new LeasedHeadLoop<FakeLease>({
    logger: silentLogger(),
    ...(options.withHeads === false ? {} : { heads }),
    pollIntervalMs: 20,
    acquire: async () => {
      if (options.available && !options.available()) return null;
      const lease = new FakeLease(++epoch);
      leases.push(lease);
      return lease;
    },
    isLeaseLost: (error) => error instanceof LeaseLost,
    catchUp: async (lease, head) => {
      passes.push({ epoch: lease.epoch, head });
      await options.pass?.(lease, head);
    },
    onLeaseChange: (held) => changes.push(held),
    messages: { acquired: "acquired", lost: "lost", failed: "failed" },
  });
  loops.push(loop);
  return { loop, heads, passes, changes, leases };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LeasedHeadLoop", () => {
  it("passes once at the start and then at each head, handing the head over, and not on the clock", async () => {
    const { loop, heads, passes, changes } = harness({});
    loop.start();
    await until(() => passes.length === 1, "the first pass");
    expect(passes[0]).toEqual({ epoch: 1n, head: undefined });
    expect(changes).toEqual([true]);
    expect(loop.lease?.epoch).toBe(1n);
    await sleep(100);
    expect(passes).toHaveLength(1);
    heads.push(7n);
    await until(() => passes.length === 2, "the pass at head 7");
    expect(passes[1]).toEqual({ epoch: 1n, head: 7n });
  });

  it("without heads, passes every poll interval", async () => {
    const { loop, passes } = harness({ withHeads: false });
    loop.start();
    await until(() => passes.length >= 3, "three passes");
  });

  it("a head arriving during a pass runs another pass right after it, not two at once", async () => {
    let inFlight = 0;
    let most = 0;
    const { loop, heads, passes } = harness({
      pass: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep(30);
        inFlight--;
      },
    });
    loop.start();
    await until(() => passes.length === 1, "the first pass");
    heads.push(1n);
    heads.push(2n);
    heads.push(3n);
    await until(() => passes.length === 2, "the pass after the burst");
    await sleep(80);
    expect(passes).toHaveLength(2);
    expect(passes[1]?.head).toBe(3n);
    expect(most).toBe(1);
  });

  it("stands by while another process holds the lease, trying every poll interval", async () => {
    let available = false;
    let tries = 0;
    const { loop, passes } = harness({
      available: () => {
        tries++;
        return available;
      },
    });
    loop.start();
    await until(() => tries >= 3, "three tries");
    expect(passes).toHaveLength(0);
    expect(loop.lease).toBeNull();
    available = true;
    await until(() => passes.length === 1, "the pass once the lease is free");
  });

  it("drops a lease a pass found lost, tells the part, releases it and takes a new one", async () => {
    let failOnce = true;
    const { loop, passes, changes, leases } = harness({
      pass: async () => {
        if (failOnce) {
          failOnce = false;
          throw new LeaseLost("another process acquired epoch 2");
        }
      },
    });
    loop.start();
    await until(() => passes.length === 2, "the pass under the new lease");
    expect(passes.map((pass) => pass.epoch)).toEqual([1n, 2n]);
    expect(changes).toEqual([true, false, true]);
    expect(leases[0]?.released).toBe(true);
  });

  it("drops a lease whose lock session ended before the next pass", async () => {
    const { loop, heads, passes, leases, changes } = harness({});
    loop.start();
    await until(() => passes.length === 1, "the first pass");
    leases[0]!.lost = "its database session ended";
    heads.push(1n);
    await until(() => passes.length === 2, "the pass under the new lease");
    expect(passes[1]?.epoch).toBe(2n);
    expect(changes).toEqual([true, false, true]);
  });

  it("retries a failed pass after the poll interval even with heads, keeping the lease", async () => {
    let failures = 2;
    const { loop, passes, changes } = harness({
      pass: async () => {
        if (failures-- > 0) throw new Error("the RPC is out of reach");
      },
    });
    loop.start();
    await until(() => passes.length === 3, "two retries");
    expect(passes.every((pass) => pass.epoch === 1n)).toBe(true);
    expect(changes).toEqual([true]);
  });

  it("stop waits for the pass in flight, releases the lease and no longer follows heads", async () => {
    let finished = false;
    const { loop, heads, passes, leases } = harness({
      pass: async () => {
        await sleep(50);
        finished = true;
      },
    });
    loop.start();
    await until(() => passes.length === 1, "the first pass");
    await loop.stop();
    expect(finished).toBe(true);
    expect(leases[0]?.released).toBe(true);
    expect(loop.lease).toBeNull();
    expect(heads.listeners).toBe(0);
    heads.push(9n);
    await sleep(50);
    expect(passes).toHaveLength(1);
  });
});

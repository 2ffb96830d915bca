// The API's view of the chain head: a head another request read (POST /discount judges at the latest block itself)
// moves it forward at once, so nothing answered after that request reads an older block; an older one changes nothing.
import { describe, expect, it } from "vitest";
import { type BlockHead, BlockTracker } from "../../src/chain/blocks.ts";

const head = (number: bigint): BlockHead => ({
  number,
  hash: `0x${number.toString(16).padStart(64, "0")}`,
  timestamp: 1_800_000_000n + number,
});

describe("BlockTracker", () => {
  it("adopts a newer head observed elsewhere, and ignores an older one", async () => {
    let chainHead = head(10n);
    let reads = 0;
    const tracker = new BlockTracker(
      {
        getBlock: (async () => {
          reads++;
          return chainHead;
        }) as never,
      },
      60_000,
    );
    expect((await tracker.latest()).number).toBe(10n);
    // The chain moved on; the tracker would keep block 10 until its next poll, a minute away.
    chainHead = head(12n);
    expect((await tracker.latest()).number).toBe(10n);
    tracker.observe(head(12n));
    expect(await tracker.latest()).toEqual(head(12n));
    tracker.observe(head(11n));
    expect((await tracker.latest()).number).toBe(12n);
    expect(reads).toBe(1);
  });
});

describe("BlockTracker following heads", () => {
  it("never answers the head before one the followed heads announced, however recently it was read", async () => {
    let chainHead = head(10n);
    let announced = 10n;
    const tracker = new BlockTracker(
      {
        getBlock: (async () => chainHead) as never,
      },
      1000,
      {
        isCurrent: (number: bigint) => number === announced,
        onHead: () => () => {},
        pushedBlock: () => undefined,
      } as never,
    );
    expect((await tracker.latest()).number).toBe(10n);
    // Block 11 is announced a moment after block 10 was read: a worker woken by it must see it, not block 10 again.
    chainHead = head(11n);
    announced = 11n;
    expect((await tracker.latest()).number).toBe(11n);
  });
});

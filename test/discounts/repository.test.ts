// The discount store's hot read: `listForToken` answers from an in-memory copy of the store. This process's
// writes (publish, cancel, expiry) show at once; another replica's once the copy is older than maxAgeMs.
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { StoredDiscount } from "../../src/discounts/discount.ts";
import { DiscountRepository } from "../../src/discounts/repository.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const TOKEN = "0x00000000000000000000000000000000000000aa" as Address;
const OTHER_TOKEN = "0x00000000000000000000000000000000000000bb" as Address;
const adapter = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

function stored(n: number, tokenToRedeem = TOKEN): StoredDiscount {
  return {
    adapter: adapter(n),
    discountId: `0x${n.toString(16).padStart(64, "0")}` as Hex,
    discount: {
      tokenToRedeem,
      discount: 600n,
      signer: adapter(0xc0),
      protocol: adapter(0xd0),
      nonce: BigInt(n),
      deadline: 2_000_000_000,
    },
    signature: `0x${"11".repeat(65)}` as Hex,
    publishedAt: new Date(Date.UTC(2026, 10, 21)),
  };
}

const ids = (discounts: readonly StoredDiscount[]) => discounts.map((discount) => discount.adapter).sort();

describe.each(databaseKinds)("discount repository (%s)", (kind) => {
  let database: Database;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("shows its own writes at once and another replica's after maxAgeMs", async () => {
    const here = new DiscountRepository(database, { clock, maxAgeMs: 250 });
    const replica = new DiscountRepository(database, { clock, maxAgeMs: 250 });
    expect(await here.listForToken(TOKEN)).toEqual([]);
    expect(await replica.listForToken(TOKEN)).toEqual([]);

    expect(await here.publish(stored(1))).toBe("stored");
    expect(await here.publish(stored(2, OTHER_TOKEN))).toBe("stored");
    expect(ids(await here.listForToken(TOKEN))).toEqual([adapter(1)]);
    expect(ids(await here.listForToken(OTHER_TOKEN))).toEqual([adapter(2)]);
    // The replica's copy is younger than maxAgeMs: it has not looked yet.
    expect(await replica.listForToken(TOKEN)).toEqual([]);
    clock.advance(250);
    expect(await replica.listForToken(TOKEN)).toEqual([stored(1)]);

    const cancel = await here.cancel({
      cancelId: `0x${"ab".repeat(32)}`,
      adapter: adapter(1),
      tokenToRedeem: TOKEN,
      signer: adapter(0xc0),
      at: clock.now(),
    });
    expect(cancel).toEqual({ kind: "cancelled", discountId: stored(1).discountId });
    expect(await here.listForToken(TOKEN)).toEqual([]);
    expect(await here.deleteByIds([stored(2).discountId])).toBe(1);
    expect(await here.listForToken(OTHER_TOKEN)).toEqual([]);
    clock.advance(250);
    expect(await replica.listForToken(TOKEN)).toEqual([]);
    expect(await replica.listForToken(OTHER_TOKEN)).toEqual([]);
  });
});

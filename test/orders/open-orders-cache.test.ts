// OpenOrdersCache: a kept answer is served for less than maxAgeMs after the read that made it started (the bound on
// another replica's writes), concurrent polls share one read, and after invalidate() (a write in this process) no
// poll gets, and nothing keeps, a read begun before it.
import { describe, expect, it } from "vitest";
import {
  isOpenOrdersPoll,
  OPEN_ORDERS_MAX_AGE_MS,
  OPEN_ORDERS_MAX_KEPT_BYTES,
  OpenOrdersCache,
  type OpenOrdersPoll,
} from "../../src/orders/open-orders-cache.ts";
import { OrdersQuerySchema } from "../../src/orders/schemas.ts";
import { ManualClock } from "../support/clock.ts";
import { gate } from "../support/gates.ts";

function poll(query: Record<string, string>): OpenOrdersPoll {
  const parsed = OrdersQuerySchema.parse({ orderStatus: "open", ...query });
  if (!isOpenOrdersPoll(parsed)) throw new Error(`not a poll: ${JSON.stringify(query)}`);
  return parsed;
}

/** A store whose answer for a solver is `<solver>@<version>`; counts reads. */
function fakeStore() {
  const store = {
    version: 1,
    reads: [] as string[],
    read: async (query: OpenOrdersPoll) => {
      const who =
        query.filler === undefined ? `${query.solverId}` : `${query.solverId ?? "-"}/${query.filler}`;
      store.reads.push(`${who} ${query.sortKey} ${query.sort}`);
      return Buffer.from(`${who}@${store.version}`);
    },
  };
  return store;
}

const FILLER_A = `0x${"a".repeat(40)}`;
const FILLER_B = `0x${"b".repeat(40)}`;
const text = (value: Buffer | undefined) => value?.toString();

describe("OpenOrdersCache", () => {
  it("recognises exactly a solver's whole list of open orders as the poll", () => {
    const parse = (query: Record<string, string>) => OrdersQuerySchema.parse(query);
    expect(isOpenOrdersPoll(parse({ solverId: "ext_a", orderStatus: "open" }))).toBe(true);
    expect(isOpenOrdersPoll(parse({ solverId: "ext_a", orderStatus: "open", sortKey: "updatedAt" }))).toBe(
      true,
    );
    expect(isOpenOrdersPoll(parse({ solverId: "ext_a", orderStatus: "filled" }))).toBe(false);
    expect(isOpenOrdersPoll(parse({ orderStatus: "open" }))).toBe(false);
    expect(isOpenOrdersPoll(parse({ solverId: "ext_a", orderStatus: "open", limit: "5" }))).toBe(false);
    expect(
      isOpenOrdersPoll(parse({ solverId: "ext_a", orderStatus: "open", swapper: `0x${"1".repeat(40)}` })),
    ).toBe(false);
  });

  it("recognises an Executor's whole list of open orders (filler=, vault-solver's poll) as the poll too", () => {
    const parse = (query: Record<string, string>) => OrdersQuerySchema.parse(query);
    expect(isOpenOrdersPoll(parse({ filler: FILLER_A, orderStatus: "open" }))).toBe(true);
    expect(isOpenOrdersPoll(parse({ filler: FILLER_A, solverId: "ext_a", orderStatus: "open" }))).toBe(true);
    expect(isOpenOrdersPoll(parse({ filler: FILLER_A, orderStatus: "filled" }))).toBe(false);
    expect(isOpenOrdersPoll(parse({ filler: FILLER_A, orderStatus: "open", limit: "5" }))).toBe(false);
  });

  it("keeps the solverId, filler and combined polls apart", async () => {
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, new ManualClock());
    const polls = [
      poll({ solverId: "ext_a" }),
      poll({ filler: FILLER_A }),
      poll({ filler: FILLER_B }),
      poll({ filler: FILLER_A.toUpperCase().replace("0X", "0x") }), // the same Executor, another spelling
      poll({ solverId: "ext_a", filler: FILLER_A }),
    ];
    const answers = [];
    for (const query of [...polls, ...polls]) answers.push(text(await cache.get(query)));
    expect(store.reads).toEqual([
      "ext_a createdAt desc",
      `-/${FILLER_A} createdAt desc`,
      `-/${FILLER_B} createdAt desc`,
      `ext_a/${FILLER_A} createdAt desc`,
    ]);
    expect(answers.slice(0, 5)).toEqual([
      "ext_a@1",
      `-/${FILLER_A}@1`,
      `-/${FILLER_B}@1`,
      `-/${FILLER_A}@1`,
      `ext_a/${FILLER_A}@1`,
    ]);
  });

  it("serves a kept answer until maxAgeMs after its read started, then reads again", async () => {
    const clock = new ManualClock();
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, clock);
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ext_a@1");
    store.version = 2; // another replica's write: nothing tells this process
    clock.advance(OPEN_ORDERS_MAX_AGE_MS - 1);
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ext_a@1");
    clock.advance(1);
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ext_a@2");
    expect(store.reads).toHaveLength(2);
  });

  it("keeps each solver and ordering apart", async () => {
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, new ManualClock());
    const polls = [
      poll({ solverId: "ext_a" }),
      poll({ solverId: "ext_b" }),
      poll({ solverId: "ext_a", sortKey: "updatedAt" }),
      poll({ solverId: "ext_a", sort: "asc" }),
    ];
    for (const query of [...polls, ...polls]) await cache.get(query);
    expect(store.reads).toEqual([
      "ext_a createdAt desc",
      "ext_b createdAt desc",
      "ext_a updatedAt desc",
      "ext_a createdAt asc",
    ]);
  });

  it("shares one read among concurrent polls", async () => {
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, new ManualClock());
    const answers = await Promise.all([1, 2, 3].map(() => cache.get(poll({ solverId: "ext_a" }))));
    expect(answers.map(text)).toEqual(["ext_a@1", "ext_a@1", "ext_a@1"]);
    expect(store.reads).toHaveLength(1);
  });

  it("after invalidate(), neither serves nor keeps a read begun before it", async () => {
    const store = fakeStore();
    let hold = gate();
    const cache = new OpenOrdersCache(async (query) => {
      const answer = await store.read(query);
      await hold.opened;
      return answer;
    }, new ManualClock());
    const early = cache.get(poll({ solverId: "ext_a" })); // reads version 1, then waits
    await new Promise((resolve) => setTimeout(resolve, 10));
    store.version = 2;
    cache.invalidate(); // the write committed in this process
    const release = hold;
    hold = gate();
    const late = cache.get(poll({ solverId: "ext_a" }));
    release.open();
    hold.open();
    expect(text(await early)).toBe("ext_a@1");
    expect(text(await late)).toBe("ext_a@2");
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ext_a@2");
    expect(store.reads).toHaveLength(2);
  });

  it("drops every kept answer on invalidate()", async () => {
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, new ManualClock());
    await cache.get(poll({ solverId: "ext_a" }));
    store.version = 2;
    cache.invalidate();
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ext_a@2");
  });

  it("keeps nothing from a failed read", async () => {
    let fail = true;
    const cache = new OpenOrdersCache(async () => {
      if (fail) throw new Error("database unavailable");
      return Buffer.from("ok");
    }, new ManualClock());
    await expect(cache.get(poll({ solverId: "ext_a" }))).rejects.toThrow("database unavailable");
    fail = false;
    expect(text(await cache.get(poll({ solverId: "ext_a" })))).toBe("ok");
  });

  it("remembers for maxAgeMs that a solver's list is too long to keep (it is streamed)", async () => {
    const clock = new ManualClock();
    let reads = 0;
    const cache = new OpenOrdersCache(async () => {
      reads++;
      return undefined;
    }, clock);
    expect(await cache.get(poll({ solverId: "ext_a" }))).toBeUndefined();
    expect(await cache.get(poll({ solverId: "ext_a" }))).toBeUndefined();
    clock.advance(OPEN_ORDERS_MAX_AGE_MS);
    await cache.get(poll({ solverId: "ext_a" }));
    expect(reads).toBe(2);
  });

  it("keeps a bounded number of answers (solver ids come from the query string)", async () => {
    const store = fakeStore();
    const cache = new OpenOrdersCache(store.read, new ManualClock());
    for (let i = 0; i <= 256; i++) await cache.get(poll({ solverId: `ext_${i}` }));
    await cache.get(poll({ solverId: "ext_256" })); // the newest is kept
    expect(store.reads).toHaveLength(257);
    await cache.get(poll({ solverId: "ext_0" })); // the oldest was dropped
    expect(store.reads).toHaveLength(258);
  });

  it("keeps at most OPEN_ORDERS_MAX_KEPT_BYTES of answers, dropping the oldest first", async () => {
    const reads: string[] = [];
    const third = Math.floor(OPEN_ORDERS_MAX_KEPT_BYTES / 3);
    const cache = new OpenOrdersCache(async (query) => {
      reads.push(`${query.solverId}`);
      return Buffer.alloc(query.solverId === "ext_huge" ? OPEN_ORDERS_MAX_KEPT_BYTES + 1 : third);
    }, new ManualClock());
    for (const solverId of ["ext_a", "ext_b", "ext_c"]) await cache.get(poll({ solverId }));
    await cache.get(poll({ solverId: "ext_d" })); // over the budget: ext_a goes
    await cache.get(poll({ solverId: "ext_b" }));
    await cache.get(poll({ solverId: "ext_a" }));
    expect(reads).toEqual(["ext_a", "ext_b", "ext_c", "ext_d", "ext_a"]);
    // An answer above the whole budget is served but not kept, and pushes out nothing.
    expect((await cache.get(poll({ solverId: "ext_huge" })))?.length).toBe(OPEN_ORDERS_MAX_KEPT_BYTES + 1);
    await cache.get(poll({ solverId: "ext_huge" }));
    await cache.get(poll({ solverId: "ext_a" }));
    await cache.get(poll({ solverId: "ext_d" }));
    expect(reads).toEqual(["ext_a", "ext_b", "ext_c", "ext_d", "ext_a", "ext_huge", "ext_huge"]);
  });
});

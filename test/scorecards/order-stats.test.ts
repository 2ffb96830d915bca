// The scorecards' order counts come from the order writers (issue 25: one domain, one owner of its SQL): what a
// transition adds and takes back, and no trigger on orders counting behind them. The counts against a recount of
// the orders, through creation, fills, expiries, cancels and a rewind, are in aggregates.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { type CountedTransition, orderStatsRows } from "../../src/scorecards/order-stats.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const CREATED = new Date("2026-11-20T10:58:30.123Z");
const state = (status: string, filledAt: Date | null = null) => ({
  status,
  filledAt,
  fillBlockNumber: filledAt ? 7n : null,
  updatedAt: filledAt ?? CREATED,
});
const transition = (
  before: ReturnType<typeof state> | null,
  after: ReturnType<typeof state>,
): CountedTransition => ({
  solverId: "ext_a",
  createdAt: CREATED,
  quotedAmountOut: "1000",
  committedAmountOut: "1010",
  before,
  after,
});

describe("what an order's transition counts", () => {
  it("counts a creation as assigned, once", () => {
    expect(orderStatsRows([transition(null, state("open"))])).toMatchObject([
      { sign: 1, assigned: 1, status: "open", created_at: CREATED.toISOString() },
    ]);
  });

  it("writes nothing for a change between statuses without counts of their own", () => {
    expect(orderStatsRows([transition(state("open"), state("insufficient-funds"))])).toEqual([]);
    expect(orderStatsRows([transition(state("open"), state("cancelled"))])).toEqual([]);
  });

  it("takes back what the state left added, with its own fill fields, and adds the new one", () => {
    const filledAt = new Date(CREATED.getTime() + 1234);
    expect(orderStatsRows([transition(state("filled", filledAt), state("open"))])).toEqual([
      {
        solver_id: "ext_a",
        created_at: CREATED.toISOString(),
        sign: -1,
        assigned: 0,
        status: "filled",
        quoted: "1000",
        committed: "1010",
        filled_at: filledAt.toISOString(),
        fill_block_number: "7",
        updated_at: filledAt.toISOString(),
      },
    ]);
    expect(
      orderStatsRows([transition(state("expired"), state("filled", filledAt))]).map((row) => [
        row.sign,
        row.status,
      ]),
    ).toEqual([
      [-1, "expired"],
      [1, "filled"],
    ]);
  });
});

describe.each(databaseKinds)("the orders table (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("has no trigger counting orders: the stream log's is the only one", async () => {
    const rows = await database.query<{ name: string }>(
      "select tgname as name from pg_trigger where tgrelid = 'orders'::regclass and not tgisinternal order by 1",
    );
    expect(rows.map((row) => row.name)).toEqual(["orders_record_event"]);
  });
});

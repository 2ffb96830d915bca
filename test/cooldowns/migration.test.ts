// Migration 0009's backfill: orders already short of funds when the fade breaker arrives (a running funding streak, or
// insufficient-funds) get their shortfall mark, so their expiry is never counted as a fade; nothing else is judged
// after the fact. Run on a migrated database with the migration's own statements, on PGlite and PostgreSQL.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { orderFundingStreaks } from "../../src/indexer/tables.ts";
import { orders } from "../../src/orders/tables.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";

const MIGRATION = fileURLToPath(
  new URL("../../src/db/migrations/0009_solver_cooldowns.sql", import.meta.url),
);

/** The migration's statements that write rows (the backfill), as drizzle's migrator splits them. */
const backfill = readFileSync(MIGRATION, "utf8")
  .split("--> statement-breakpoint")
  .map((statement) => statement.trim())
  .filter((statement) => /^(--[^\n]*\n)*INSERT/i.test(statement));

describe.each(databaseKinds)("migration 0009's backfill (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("marks the orders already short of funds, and only those", async () => {
    const at = new Date("2026-11-27T12:00:00Z");
    const streaking = newOrder("ext_a", at);
    const insufficient = newOrder("ext_a", at, { status: "insufficient-funds" });
    const funded = newOrder("ext_a", at);
    const expired = newOrder("ext_a", at, { status: "expired" });
    await database.db.insert(orders).values([streaking, insufficient, funded, expired]);
    await database.db
      .update(orders)
      .set({ statusBlockNumber: 40n })
      .where(eq(orders.orderId, insufficient.orderId));
    await database.db
      .insert(orderFundingStreaks)
      .values({ orderId: streaking.orderId, streak: 2, lastBlock: 51n });

    expect(backfill).toHaveLength(2);
    for (const statement of backfill) await database.query(statement);
    // Once more: the backfill is idempotent.
    for (const statement of backfill) await database.query(statement);

    const marks = await database.query<{ order_id: string; first_block: string }>(
      "select order_id, first_block::text as first_block from order_funding_shortfalls order by first_block",
    );
    expect(marks).toEqual([
      { order_id: insufficient.orderId, first_block: "40" },
      { order_id: streaking.orderId, first_block: "50" },
    ]);
    expect(await database.query("select * from solver_order_outcomes")).toEqual([]);
  });
});

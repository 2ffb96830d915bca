// The scorecards' minute rows older than two hours are pruned (nothing reads them), hour rows are kept, and the hour
// window is untouched; on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { ScorecardRetention } from "../../src/scorecards/retention.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";

const NOW = Date.parse("2026-11-20T12:30:20.000Z");

describe.each(databaseKinds)("scorecard retention (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  const rows = async (table: string) =>
    (
      await database.query<{ span: string; bucket_start: Date | string }>(
        `select span, bucket_start from ${table} order by span, bucket_start`,
      )
    ).map((row) => `${row.span} ${new Date(row.bucket_start).toISOString()}`);

  it("deletes minute rows older than two hours and keeps hour rows and recent minutes", async () => {
    const orders = new OrderRepository(database, new OrderEvents(), new OrderStats());
    for (const age of [3 * 3600_000, 2 * 3600_000 + 60_000, 30 * 60_000]) {
      await orders.createOnce(newOrder("ext_alpha", new Date(NOW - age)));
    }
    await database.query(
      `insert into solver_answer_stats (span, bucket_start, solver_id, offered)
       values ('minute', '2026-11-20T09:30:00Z', 'ext_alpha', 1), ('minute', '2026-11-20T12:29:00Z', 'ext_alpha', 1),
              ('hour', '2026-11-20T09:00:00Z', 'ext_alpha', 1)`,
    );
    const retention = new ScorecardRetention(database, new ManualClock(NOW), silentLogger());
    expect(await retention.prune()).toBe(3);
    expect(await rows("solver_order_stats")).toEqual([
      "hour 2026-11-20T09:00:00.000Z",
      "hour 2026-11-20T10:00:00.000Z",
      "hour 2026-11-20T12:00:00.000Z",
      "minute 2026-11-20T12:00:00.000Z",
    ]);
    expect(await rows("solver_answer_stats")).toEqual([
      "hour 2026-11-20T09:00:00.000Z",
      "minute 2026-11-20T12:29:00.000Z",
    ]);
    expect(await retention.prune()).toBe(0);
  });
});

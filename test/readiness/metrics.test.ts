// The operations gauges carry real values: the indexer's position and lag (from the database, as any replica reads
// them), the chain head, open orders past their deadline, the order feed's lag, RPC errors by method, the pool's
// gauges on PostgreSQL; and the rate-limit counter the limiter increments is exported under its name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unixSeconds } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import { orders } from "../../src/orders/tables.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { newOrder } from "../support/order-rows.ts";
import { indexUntilCaughtUp } from "../support/orders.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

/** The value of the series `name{labels}` in a scrape, or undefined when it is not there. */
function sample(scrape: string, series: string): number | undefined {
  const line = scrape.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(swap: Pick<SwapTestApp, "internal">): Promise<string> {
  return (await swap.internal.inject({ url: "/metrics" })).body;
}

describe.each(databaseKinds)("the operations gauges on %s", (kind) => {
  const chain = useTestChain();
  const clock = new ManualClock(Date.now());
  let database: Database;
  let swap: SwapTestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    clock.set(Number(await chain.now()) * 1000);
    swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: [],
      indexer: false,
      env: { READY_MAX_INDEXER_LAG_BLOCKS: "5" },
    });
    await swap.runtime.start();
  });
  afterAll(async () => {
    await swap?.close();
    await database?.close();
  });

  it("report the indexer's position and lag against the head, and the head itself", async () => {
    await indexUntilCaughtUp(swap.runtime.indexer);
    await chain.mine(3);
    await swap.syncHead();
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    const body = await scrape(swap);
    expect(sample(body, 'sluice_chain_follower_position{follower="indexer"}')).toBe(Number(head.number) - 3);
    expect(sample(body, 'sluice_chain_follower_lag_blocks{follower="indexer"}')).toBe(3);
    expect(sample(body, 'sluice_chain_follower_max_lag_blocks{follower="indexer"}')).toBe(5);
    expect(sample(body, "sluice_chain_head_block")).toBe(Number(head.number));
    expect(sample(body, "sluice_chain_head_timestamp_seconds")).toBe(Number(head.timestamp));
    expect(sample(body, "sluice_chain_head_received_age_seconds")).toBeLessThan(5);
    expect(sample(body, "sluice_order_streams_open")).toBe(0);
    expect(sample(body, "sluice_order_feed_lag_seconds")).toBe(0);
    if (kind === "postgres") {
      expect(sample(body, "sluice_db_pool_waiting")).toBe(0);
      expect(sample(body, 'sluice_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    } else expect(sample(body, "sluice_db_pool_waiting")).toBeUndefined();
  });

  it("count open orders past their deadline, and how long ago the earliest one passed", async () => {
    const now = unixSeconds(clock.now());
    expect(sample(await scrape(swap), "sluice_orders_past_deadline")).toBe(0);
    await database.db
      .insert(orders)
      .values([
        newOrder("ext_a", clock.now(), { deadline: now - 400 }),
        newOrder("ext_a", clock.now(), { deadline: now - 30 }),
        newOrder("ext_a", clock.now(), { deadline: now + 600 }),
        newOrder("ext_a", clock.now(), { deadline: now - 900, status: "expired" }),
      ]);
    const body = await scrape(swap);
    expect(sample(body, "sluice_orders_past_deadline")).toBe(2);
    expect(sample(body, "sluice_orders_past_deadline_oldest_seconds")).toBe(400);
  });
});

describe("RPC errors and the limiter's counter", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => database?.close());

  it("count failed JSON-RPC calls by method and kind, and export the rate-limit counter", async () => {
    // An RPC nothing listens on: the readiness probe's head request fails at the transport.
    const { sluice, app, internal } = await createTestServer(database, {
      deployment: unstartedDeployment(placeholderDeployment()),
    });
    try {
      expect((await app.inject({ url: "/api/v1/ready" })).statusCode).toBe(503);
      await eventually(
        async () =>
          (sample(
            (await internal.inject({ url: "/metrics" })).body,
            'sluice_rpc_errors_total{method="eth_getBlockByNumber",kind="http"}',
          ) ?? 0) >= 1,
        "the failed eth_getBlockByNumber is counted",
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      // The limiter counts its refusals here (its class and the integrator, `anonymous` without a key).
      sluice.parts.metrics.rateLimitRejections.inc({ class: "quote", integrator: "anonymous" });
      expect(
        sample(
          (await internal.inject({ url: "/metrics" })).body,
          'sluice_rate_limit_rejections_total{class="quote",integrator="anonymous"}',
        ),
      ).toBe(1);
    } finally {
      await sluice.stop();
    }
  });
});

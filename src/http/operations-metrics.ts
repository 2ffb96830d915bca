// The gauges an operator on call watches (deploy/prometheus/alerts.yml alerts on them): how far each chain follower
// (the indexer; the points engine once configured) is behind, the chain head, the order feed's lag, open order
// streams, the database pool, and open orders past their deadline. Each is read at scrape time; a read that needs the
// database is bounded by `timeoutMs`, and one that fails or times out leaves its series out of that scrape (an
// absent series rather than a stale value that looks healthy).
import { Gauge } from "prom-client";
import type { BlockHead } from "../chain/blocks.ts";
import { type Clock, unixSeconds } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { OverdueOrders } from "../orders/overdue.ts";
import type { ChainFollower } from "../readiness/followers.ts";
import type { HttpMetrics } from "./metrics.ts";

export interface OperationsSources {
  clock: Clock;
  /** The longest a scrape waits for one database read. */
  timeoutMs: number;
  /** Read at each scrape: followers can be added while running (src/readiness/followers.ts). */
  followers: () => readonly ChainFollower[];
  database: Database;
  /** This replica's order streams. */
  streams: { readonly open: number };
  /** The swap flow's parts; absent on a partner-only Sluice. */
  deployment?: {
    head: { readonly current: BlockHead | undefined; readonly receivedAt: number };
    orderFeedLagSeconds: () => Promise<number>;
    overdueOrders: (nowSeconds: number) => Promise<OverdueOrders>;
  };
}

export function registerOperationsGauges(metrics: HttpMetrics, sources: OperationsSources): void {
  const registers = [metrics.registry];
  const bounded = <T>(read: () => Promise<T>) => within(sources.timeoutMs, read);

  // First: the registry collects in registration order up to each collector's first await, so the pool is read
  // before this scrape's own queries (below) take connections and queue.
  const { database } = sources;
  if (database.poolStats) {
    const stats = database.poolStats.bind(database);
    new Gauge({
      name: "sluice_db_pool_waiting",
      help: "Queries waiting for a free connection of the request pool (PostgreSQL)",
      registers,
      collect() {
        this.set(stats().waiting);
      },
    });
    new Gauge({
      name: "sluice_db_pool_connections",
      help: "Connections of the request pool (PostgreSQL), by state: total (open), idle",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const { total, idle } = stats();
        this.set({ state: "total" }, total);
        this.set({ state: "idle" }, idle);
      },
    });
  }

  const followerGauge = (name: string, help: string, value: (lag: FollowerReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["follower"] as const,
      registers,
      async collect() {
        this.reset();
        const readings = await Promise.all(
          sources.followers().map(async (follower) => ({
            follower,
            reading: await bounded(() => follower.read()).catch(() => undefined),
          })),
        );
        for (const { follower, reading } of readings)
          if (reading) this.set({ follower: follower.name }, value({ follower, ...reading }));
      },
    });
  followerGauge(
    "sluice_chain_follower_position",
    "The newest block a chain follower (indexer, points-engine) has stored, read from the database: any replica reports it",
    (reading) => Number(reading.position ?? -1n),
  );
  followerGauge(
    "sluice_chain_follower_lag_blocks",
    "Blocks a chain follower is behind the confirmed head (this replica's head less the confirmation depth)",
    (reading) => Number(reading.lagBlocks),
  );
  new Gauge({
    name: "sluice_chain_follower_max_lag_blocks",
    help: "The lag beyond which a follower fails readiness (READY_MAX_INDEXER_LAG_BLOCKS, READY_MAX_POINTS_ENGINE_LAG_BLOCKS)",
    labelNames: ["follower"] as const,
    registers,
    collect() {
      this.reset();
      for (const follower of sources.followers())
        this.set({ follower: follower.name }, follower.maxLagBlocks);
    },
  });

  new Gauge({
    name: "sluice_order_streams_open",
    help: "Order streams (GET /orders/stream) this replica holds open",
    registers,
    collect() {
      this.set(sources.streams.open);
    },
  });

  const deployment = sources.deployment;
  if (!deployment) return;
  new Gauge({
    name: "sluice_chain_head_block",
    help: "The newest chain head this replica received from its RPC",
    registers,
    collect() {
      this.reset();
      const head = deployment.head.current;
      if (head) this.set(Number(head.number));
    },
  });
  new Gauge({
    name: "sluice_chain_head_timestamp_seconds",
    help: "The timestamp of that head's block (unix seconds): time() minus it is how old the newest known block is",
    registers,
    collect() {
      this.reset();
      const head = deployment.head.current;
      if (head) this.set(Number(head.timestamp));
    },
  });
  new Gauge({
    name: "sluice_chain_head_received_age_seconds",
    help: "Seconds since this replica last received a head from its RPC",
    registers,
    collect() {
      this.reset();
      if (deployment.head.current) this.set((Date.now() - deployment.head.receivedAt) / 1000);
    },
  });
  new Gauge({
    name: "sluice_order_feed_lag_seconds",
    help: "How long the oldest order change this replica's order feed has not fanned out to its streams has waited",
    registers,
    async collect() {
      this.reset();
      const lag = await bounded(deployment.orderFeedLagSeconds).catch(() => undefined);
      if (lag !== undefined) this.set(lag);
    },
  });
  // Both overdue gauges come from one query per scrape (the registry collects its metrics concurrently).
  let overdueRead: Promise<{ now: number; found: OverdueOrders | undefined }> | undefined;
  const readOverdue = () => {
    overdueRead ??= (async () => {
      const now = unixSeconds(sources.clock.now());
      const found = await bounded(() => deployment.overdueOrders(now)).catch(() => undefined);
      return { now, found };
    })().finally(() => {
      overdueRead = undefined;
    });
    return overdueRead;
  };
  new Gauge({
    name: "sluice_orders_past_deadline",
    help: "Open orders whose deadline has passed but that the indexer has not expired yet (venue-wide: aggregate with max)",
    registers,
    async collect() {
      this.reset();
      const { found } = await readOverdue();
      if (found) this.set(found.count);
    },
  });
  new Gauge({
    name: "sluice_orders_past_deadline_oldest_seconds",
    help: "How long ago the earliest deadline among those orders passed (0 without any)",
    registers,
    async collect() {
      this.reset();
      const { now, found } = await readOverdue();
      if (found) this.set(found.oldestDeadline === null ? 0 : now - found.oldestDeadline);
    },
  });
}

type FollowerReading = { follower: ChainFollower } & Awaited<ReturnType<ChainFollower["read"]>>;

class ScrapeReadTimeoutError extends Error {
  override name = "ScrapeReadTimeoutError";
}

function within<T>(timeoutMs: number, read: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    read(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ScrapeReadTimeoutError(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

// GET /ready flips to 503 within 2 s of a fault and back after it, naming the failing check, while /health stays
// 200: the RPC stalled (a TCP proxy in front of anvil, frozen), the indexer behind the head (blocks mined while it
// does not run), the database cut (a TCP proxy in front of PostgreSQL). Both listeners answer the same.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createEmptyPostgresDatabase, createTestDatabase, databaseKinds } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { indexUntilCaughtUp } from "../support/orders.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

/** The bound: a probe sees the fault within this long. */
const FLIP_WITHIN_MS = 2000;
const READY_ENV = {
  READY_CHECK_TIMEOUT_MS: "500",
  READY_HEAD_MAX_AGE_MS: "500",
  READY_MAX_INDEXER_LAG_BLOCKS: "5",
};

interface Answer {
  status: number;
  body: {
    status: string;
    failing: string[];
    checks: Array<{ name: string; status: string; message: string }>;
  };
}

async function ready(app: SwapTestApp["app"], path = "/api/v1/ready"): Promise<Answer> {
  const response = await app.inject({ method: "GET", url: path });
  return { status: response.statusCode, body: response.json() };
}

async function internalReady(swap: SwapTestApp): Promise<Answer> {
  return ready(swap.internal, "/api-internal/v1/ready");
}

async function healthStatus(swap: SwapTestApp): Promise<number> {
  return (await swap.app.inject({ method: "GET", url: "/api/v1/health" })).statusCode;
}

/** Polls /ready until `accept` holds; fails after `withinMs`. Returns the accepted answer and when it came. */
async function readyUntil(
  swap: SwapTestApp,
  accept: (answer: Answer) => boolean,
  withinMs: number,
  what: string,
): Promise<{ answer: Answer; afterMs: number }> {
  const started = Date.now();
  let last: Answer | undefined;
  await eventually(
    async () => {
      last = await ready(swap.app);
      // Liveness never follows readiness.
      expect(await healthStatus(swap)).toBe(200);
      return accept(last);
    },
    what,
    { timeoutMs: withinMs, intervalMs: 50 },
  );
  return { answer: last!, afterMs: Date.now() - started };
}

const isReady = (answer: Answer) => answer.status === 200 && answer.body.status === "ready";
const failingOn = (check: string) => (answer: Answer) =>
  answer.status === 503 && answer.body.status === "not-ready" && answer.body.failing.includes(check);

describe.each(databaseKinds)("readiness on %s", (kind) => {
  const chain = useTestChain();
  const clock = new ManualClock(Date.now());
  let database: Database;
  let rpcProxy: TcpProxy;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const rpc = new URL(chain.rpcUrl);
    rpcProxy = await startTcpProxy({ host: rpc.hostname, port: Number(rpc.port) });
  });
  afterAll(async () => {
    await rpcProxy?.close();
    await database?.close();
  });
  afterEach(() => rpcProxy.restore());

  async function startSwap(options: { indexer: boolean }): Promise<SwapTestApp> {
    clock.set(Number(await chain.now()) * 1000);
    const swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: [],
      rpcUrl: rpcProxy.proxiedUrl(chain.rpcUrl),
      indexer: options.indexer,
      indexerPollIntervalMs: 50,
      env: READY_ENV,
    });
    await swap.runtime.start();
    return swap;
  }

  it("is ready with every check passing, on both listeners, and names them", async () => {
    const swap = await startSwap({ indexer: true });
    try {
      const { answer } = await readyUntil(swap, isReady, 10_000, "ready");
      expect(answer.body.failing).toEqual([]);
      expect(answer.body.checks.map((check) => check.name).sort()).toEqual(
        ["chain-head", "database", "indexer", "migrations", "serving"].sort(),
      );
      expect(answer.body.checks.every((check) => check.status === "pass")).toBe(true);
      const internal = await internalReady(swap);
      expect(internal.status).toBe(200);
      expect(internal.body.status).toBe("ready");
    } finally {
      await swap.close();
    }
  });

  it("turns 503 naming chain-head within 2 s of an RPC stall, and ready again after", async () => {
    const swap = await startSwap({ indexer: true });
    try {
      await readyUntil(swap, isReady, 10_000, "ready before the stall");
      rpcProxy.freeze();
      const { answer } = await readyUntil(
        swap,
        failingOn("chain-head"),
        FLIP_WITHIN_MS,
        "503 naming chain-head",
      );
      expect(answer.body.failing).not.toContain("database");
      expect((await internalReady(swap)).body.failing).toContain("chain-head");
      rpcProxy.restore();
      await readyUntil(swap, isReady, 15_000, "ready after the RPC is back");
    } finally {
      rpcProxy.restore();
      await swap.close();
    }
  });

  it("turns 503 naming the indexer when it falls behind the head, and ready once it catches up", async () => {
    // No indexer runs here: the test steps it, as another replica's would be.
    const swap = await startSwap({ indexer: false });
    try {
      await indexUntilCaughtUp(swap.runtime.indexer);
      await readyUntil(swap, isReady, 10_000, "ready with the indexer caught up");
      await chain.mine(8);
      const { answer } = await readyUntil(
        swap,
        failingOn("indexer"),
        FLIP_WITHIN_MS,
        "503 naming the indexer",
      );
      const check = answer.body.checks.find((c) => c.name === "indexer")!;
      expect(check.message).toMatch(/8 blocks behind/);
      expect(answer.body.failing).toEqual(["indexer"]);
      await indexUntilCaughtUp(swap.runtime.indexer);
      await readyUntil(swap, isReady, FLIP_WITHIN_MS, "ready after the indexer caught up");
    } finally {
      await swap.close();
    }
  });

  it("turns 503 naming serving once shutdown starts", async () => {
    const swap = await startSwap({ indexer: true });
    try {
      await readyUntil(swap, isReady, 10_000, "ready");
      swap.sluice.parts.lifecycle.startDraining();
      const answer = await ready(swap.app);
      expect(answer.status).toBe(503);
      expect(answer.body.failing).toEqual(["serving"]);
    } finally {
      await swap.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("readiness through a database cut (postgres)", () => {
  const chain = useTestChain();
  const clock = new ManualClock(Date.now());
  let proxy: TcpProxy;
  let drop: () => Promise<void>;
  let database: Database;

  beforeAll(async () => {
    const empty = await createEmptyPostgresDatabase();
    drop = empty.drop;
    const direct = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 2 });
    await migrate(direct);
    await direct.close();
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({
      kind: "postgres",
      url: proxy.proxiedUrl(empty.url),
      poolSize: 4,
      timeouts: { connectMs: 500, statementMs: 500, keepAliveMs: 1000 },
    });
  });
  afterAll(async () => {
    proxy?.restore();
    await database?.close();
    await proxy?.close();
    await drop?.();
  });

  it("turns 503 naming the database within 2 s of the cut, /health staying 200, and ready again after", async () => {
    clock.set(Number(await chain.now()) * 1000);
    const swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: [],
      indexerPollIntervalMs: 50,
      env: READY_ENV,
    });
    await swap.runtime.start();
    try {
      await readyUntil(swap, isReady, 10_000, "ready before the cut");
      proxy.cut();
      const { answer } = await readyUntil(
        swap,
        failingOn("database"),
        FLIP_WITHIN_MS,
        "503 naming the database",
      );
      expect(answer.body.failing).not.toContain("chain-head");
      proxy.restore();
      await readyUntil(swap, isReady, 15_000, "ready after the database is back");
    } finally {
      proxy.restore();
      await swap.close();
    }
  });
});

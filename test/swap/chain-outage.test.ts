// A chain RPC outage (issue 21.3): the chain cut behind a TCP proxy the test controls. Every route that reads the chain
// answers 503 CHAIN_UNAVAILABLE in its own envelope, naming the chain, within its RPC timeouts — never a 500, never
// "no quotes", never "database" — and the log says so once when the outage starts and once when it ends. Once the
// chain is back every route answers 200 at its first request (no failure is cached). With two RPC URLs and one cut,
// nothing fails.

import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { discountBody } from "../liquidity/worked-example.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import {
  approveReactor,
  placeOrder,
  quotingBehaviour,
  type SignedQuote,
  signedQuote,
} from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

/** How long one RPC URL gets per request here: a cut (silent) URL costs each try this long. */
const RPC_TIMEOUT_MS = 400;
/**
 * A request that needs the chain answers within two tries of its URL (one retry after 150 ms) and the head read
 * before them, plus room for a loaded machine.
 */
const ANSWER_BOUND_MS = 2 * (2 * RPC_TIMEOUT_MS + 150) + 3000;
const INTERNAL_CREDENTIALS = { "x-solver-id": "int_gamma", "x-rfq-shared-secret": "secret-int_gamma" };

const chain = useTestChain();

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

interface ChainRoute {
  name: string;
  app: "public" | "internal";
  method: "GET" | "POST";
  url: string;
  payload?: object | (() => Promise<object>);
  headers?: Record<string, string>;
}

describe("a chain RPC outage", () => {
  const clock = new ManualClock(Date.now());
  let database: Database;
  let solver: ScriptedSolver;
  let gamma: ScriptedSolver;
  let proxy: TcpProxy;
  let spare: TcpProxy;
  const lines: LogLine[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });

  beforeAll(async () => {
    const rpc = new URL(chain.rpcUrl);
    proxy = await startTcpProxy({ host: rpc.hostname, port: Number(rpc.port) });
    spare = await startTcpProxy({ host: rpc.hostname, port: Number(rpc.port) });
    database = await createTestDatabase("pglite");
    solver = await startScriptedSolver(quotingBehaviour(chain.core.executors[0]!));
    gamma = await startScriptedSolver(quotingBehaviour(chain.core.executors[0]!));
  });

  afterEach(() => {
    proxy.restore();
    spare.restore();
  });

  afterAll(async () => {
    await solver?.close();
    await gamma?.close();
    await proxy?.close();
    await spare?.close();
    await database?.close();
  });

  async function serve(rpcUrls: string[]): Promise<SwapTestApp> {
    clock.set(Number(await chain.now()) * 1000);
    return createSwapTestApp(chain, database, {
      clock,
      solvers: [
        { id: "ext_scripted", endpoint: solver.url },
        { id: "int_gamma", endpoint: gamma.url, internal: true },
      ],
      rpcUrls,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
      logger,
    });
  }

  /**
   * Every route that reads the chain, with a request each that answers 200 while the chain is up: the swap flow, the
   * liquidity snapshots, a discount published, the internal discount API.
   */
  async function chainRoutes(swap: SwapTestApp): Promise<ChainRoute[]> {
    await approveReactor(chain, chain.accounts.swapper);
    const order = await placeOrder(chain, swap.app, database);
    const quote: SignedQuote = await signedQuote(chain, swap.app);
    // The quote's round is stored just after its answer: an /order for it needs it.
    await swap.sluice.deployment!.quotes.roundWriter.settled(quote.quote.quoteId);
    const deadline = Number(await chain.now()) + 3600;
    const { marketMaker } = chain.accounts;
    const listed = await discountBody(chain, chain.core.adapters.usd, marketMaker, { deadline });
    const publishing = await swap.app.inject({
      method: "POST",
      url: "/api/v1/discount",
      payload: listed.body,
    });
    expect(publishing.statusCode, publishing.body).toBe(200);
    const rwa = chain.core.tokens.rwa;
    return [
      {
        name: "check_approval",
        app: "public",
        method: "POST",
        url: "/api/v1/check_approval",
        payload: {
          walletAddress: chain.accounts.swapper2.address,
          chainId: chain.chainId,
          token: rwa,
          amount: "1000",
        },
      },
      {
        name: "quote",
        app: "public",
        method: "POST",
        url: "/api/v1/quote",
        payload: {
          tokenInChainId: chain.chainId,
          tokenOutChainId: chain.chainId,
          tokenIn: rwa,
          tokenOut: chain.core.tokens.usd,
          type: "EXACT_INPUT",
          amount: (10n ** 18n).toString(),
          swapper: chain.accounts.swapper.address,
          outputs: [{ token: chain.core.tokens.usd }],
        },
      },
      {
        name: "order",
        app: "public",
        method: "POST",
        url: "/api/v1/order",
        payload: { quote: quote.quote, signature: quote.signature },
      },
      {
        name: "cancel",
        app: "public",
        method: "POST",
        url: "/api/v1/cancel",
        payload: { orderId: order.orderId },
      },
      {
        name: "liquidity",
        app: "public",
        method: "POST",
        url: "/api/v1/liquidity",
        payload: { tokenIn: rwa },
      },
      {
        name: "liquidity-batch",
        app: "public",
        method: "POST",
        url: "/api/v1/liquidity-batch",
        payload: { tokensIn: [rwa] },
      },
      {
        name: "discount",
        app: "public",
        method: "POST",
        url: "/api/v1/discount",
        // A fresh discount each time: one stored before the cut would be answered from the database.
        payload: async () =>
          (await discountBody(chain, chain.core.adapters.usd, marketMaker, { deadline })).body,
      },
      {
        name: "internal discounts",
        app: "internal",
        method: "GET",
        url: "/api-internal/v1/discounts",
        headers: INTERNAL_CREDENTIALS,
      },
      {
        name: "internal resolve",
        app: "internal",
        method: "POST",
        url: "/api-internal/v1/discounts",
        headers: INTERNAL_CREDENTIALS,
        // The pair's live discount (each /discount below replaces the one before on the pair).
        payload: { adapter: chain.core.adapters.usd, tokenToRedeem: rwa },
      },
    ];
  }

  async function send(swap: SwapTestApp, route: ChainRoute) {
    const app: App = route.app === "public" ? swap.app : swap.internal;
    const payload = typeof route.payload === "function" ? await route.payload() : route.payload;
    const started = performance.now();
    const response = await app.inject({
      method: route.method,
      url: route.url,
      ...(payload ? { payload } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
    });
    return { response, ms: performance.now() - started };
  }

  it("answers 503 CHAIN_UNAVAILABLE on every route that reads the chain, logs it once, and recovers at once", async () => {
    const swap = await serve([proxy.proxiedUrl(chain.rpcUrl)]);
    try {
      const routes = await chainRoutes(swap);
      // Up: each route answers 200 (the caches are warm: the head, the adapters, the discounts).
      for (const route of routes) {
        const { response } = await send(swap, route);
        expect(response.statusCode, `${route.name}: ${response.body}`).toBe(200);
      }
      lines.length = 0;

      proxy.cut();
      for (const route of routes) {
        const { response, ms } = await send(swap, route);
        expect(response.statusCode, `${route.name}: ${response.body}`).toBe(503);
        expect(response.headers["retry-after"], route.name).toBe("1");
        expect(response.json(), route.name).toMatchObject({
          error: {
            code: "CHAIN_UNAVAILABLE",
            status: 503,
            message: `The chain anvil (${chain.chainId}) is unavailable: its RPC did not answer; retry shortly`,
            details: { chainId: chain.chainId, chain: "anvil" },
          },
        });
        expect(response.body, route.name).not.toMatch(/database|no quotes/i);
        expect(ms, route.name).toBeLessThan(ANSWER_BOUND_MS);
      }
      // Twice more, as clients retry: still 503, still one warning.
      for (const route of routes.slice(0, 3)) expect((await send(swap, route)).response.statusCode).toBe(503);

      proxy.restore();
      for (const route of routes) {
        const { response } = await send(swap, route);
        expect(response.statusCode, `${route.name} after the restore: ${response.body}`).toBe(200);
      }

      const warnings = lines.filter((line) => line.level >= 40);
      expect(warnings.map((line) => line.msg)).toEqual([
        "chain unavailable: outage started",
        "chain available again: outage ended",
      ]);
      expect(warnings[0]).toMatchObject({ outage: "chain", chain: "anvil", chainId: chain.chainId });
      expect(lines.some((line) => /database unavailable/i.test(line.msg))).toBe(false);
      // Each 503 still has its request line, at info: the outage's two lines are its warnings.
      const failed = lines.filter((line) => line.msg === "request" && line.status === 503);
      expect(failed.length).toBe(routes.length + 3);
      expect(failed.every((line) => line.level === 30)).toBe(true);
    } finally {
      await swap.close();
    }
  }, 120_000);

  it("with two RPC URLs and the first cut, every route answers 200", async () => {
    const swap = await serve([proxy.proxiedUrl(chain.rpcUrl), spare.proxiedUrl(chain.rpcUrl)]);
    try {
      const routes = await chainRoutes(swap);
      lines.length = 0;
      proxy.cut();
      for (const route of routes) {
        const { response } = await send(swap, route);
        expect(response.statusCode, `${route.name}: ${response.body}`).toBe(200);
      }
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    } finally {
      await swap.close();
    }
  }, 120_000);
});

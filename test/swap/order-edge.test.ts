// POST /order under concurrency (bursts of identical posts on one replica, and two replicas on one PostgreSQL), with
// a contract-wallet swapper, and with a client that gives up mid-request; and the /orders index plans.
import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testERC1271WalletAbi, testERC1271WalletBytecode } from "../../src/chain/abis.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { pageSql } from "../../src/orders/page-query.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrdersQuerySchema } from "../../src/orders/schemas.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { quoteRequestBody, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

async function quoteFor(app: App, swapper: Address) {
  const response = await app.inject({
    method: "POST",
    url: "/api/v1/quote",
    payload: quoteRequestBody(chain, { amount: 10n ** 20n, swapper }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().quotes[0];
}

describe.each(databaseKinds)("POST /order edge cases (%s)", (kind) => {
  let database: Database;
  let app: App;
  let replica: App;
  let solver: ScriptedSolver;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    solver = await startScriptedSolver({ kind: "decline" });
    const solvers = [{ id: "ext_scripted", endpoint: solver.url }];
    ({ app } = await createSwapTestApp(chain, database, { clock, solvers }));
    // A second API replica on the same database.
    ({ app: replica } = await createSwapTestApp(chain, database, { clock, solvers }));
  });
  afterAll(async () => {
    await app?.close();
    await replica?.close();
    await solver?.close();
    await database?.close();
  });
  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    solver.setBehaviour({ kind: "quote", filler: chain.core.executors[0]!, amountOut: () => 99_000_000n });
  });

  it.runIf(kind === "postgres")(
    "turns 20 concurrent identical posts on two replicas into one order",
    async () => {
      const entry = await quoteFor(app, chain.accounts.swapper.address);
      const signature = await signRequest(
        chain.accounts.swapper,
        { chainId: chain.chainId, reactor: chain.core.reactor },
        requestFromSignatureData(entry.signatureData.value),
      );
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? app : replica).inject({
            method: "POST",
            url: "/api/v1/order",
            payload: { quote: entry.quote, signature },
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const orderIds = new Set(responses.map((r) => r.json().orderId));
      expect(orderIds.size).toBe(1);
      const [orderId] = [...orderIds];
      const rows = await database.query<{ n: string }>(
        "select count(*) as n from orders where quote_id = $1",
        [entry.quote.quoteId],
      );
      expect(rows[0]?.n).toBe("1");
      // Every call's request id is stored: the creator's on the order, the 19 others as attempts.
      const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
      const order = await repository.findById(orderId!);
      const attempts = await repository.attempts(orderId!);
      expect(attempts).toHaveLength(19);
      const ids = new Set([order!.requestId, ...attempts.map((a) => a.requestId)]);
      expect(ids).toEqual(new Set(responses.map((r) => r.json().requestId)));
    },
  );

  // Issue 21: 60 identical posts of one quote at once took more than the solver's 32 slots (the posts left out
  // answered 409 before the winner committed) and could collide on the order hash (500).
  it("turns each of 10 bursts of 60 identical concurrent posts into one order, every post answered 200", async () => {
    for (let burst = 0; burst < 10; burst++) {
      const entry = await quoteFor(app, chain.accounts.swapper.address);
      const signature = await signRequest(
        chain.accounts.swapper,
        { chainId: chain.chainId, reactor: chain.core.reactor },
        requestFromSignatureData(entry.signatureData.value),
      );
      const responses = await Promise.all(
        Array.from({ length: 60 }, () =>
          app.inject({ method: "POST", url: "/api/v1/order", payload: { quote: entry.quote, signature } }),
        ),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(
        statuses.filter((status) => status !== 200),
        `burst ${burst}: ${responses.find((r) => r.statusCode !== 200)?.body}`,
      ).toEqual([]);
      expect(new Set(responses.map((r) => r.json().orderId)).size, `burst ${burst}`).toBe(1);
      const rows = await database.query<{ n: string }>(
        "select count(*) as n from orders where quote_id = $1",
        [entry.quote.quoteId],
      );
      expect(rows[0]?.n).toBe("1");
    }
  });

  it("accepts an ERC-1271 contract wallet as the swapper", async () => {
    const owner = chain.accounts.swapper2;
    const hash = await chain.wallet(owner).deployContract({
      abi: testERC1271WalletAbi,
      bytecode: testERC1271WalletBytecode,
      args: [owner.address],
    });
    const wallet = getAddress(
      (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!,
    );
    const entry = await quoteFor(app, wallet);
    const ref = { chainId: chain.chainId, reactor: chain.core.reactor };
    const request = requestFromSignatureData(entry.signatureData.value);

    const forged = await signRequest(chain.accounts.other, ref, request);
    const refused = await app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature: forged },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe("INVALID_SIGNATURE");

    const signature = await signRequest(owner, ref, request);
    const accepted = await app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const order = await new OrderRepository(database, new OrderEvents(), new OrderStats()).findById(
      accepted.json().orderId,
    );
    expect(order?.swapper).toBe(wallet.toLowerCase());
  });

  it("creates the order even when the client disconnects before the answer", async () => {
    const entry = await quoteFor(app, chain.accounts.swapper.address);
    const signature = await signRequest(
      chain.accounts.swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    // The solver answers the hard round only after the client has gone.
    solver.setBehaviour({
      kind: "quote",
      filler: chain.core.executors[0]!,
      amountOut: () => 99_000_000n,
      delayMs: 300,
    });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const controller = new AbortController();
    const pending = fetch(`${address}/api/v1/order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quote: entry.quote, signature }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
    let order = await repository.findByQuoteId(entry.quote.quoteId);
    for (let i = 0; i < 100 && !order; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      order = await repository.findByQuoteId(entry.quote.quoteId);
    }
    expect(order?.status).toBe("open");
  });
});

describe.runIf(databaseKinds.includes("postgres"))("GET /orders index plans (postgres)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    // A production-like table: mostly settled orders, a few open ones, big enough that plans are realistic. Loaded
    // with the table's triggers off: the order log's and the scorecards' per-row work made this load take most of
    // the 120 s hook timeout, and these plans read only the orders table.
    await database.query("alter table orders disable trigger user");
    await database.query(`
      insert into orders (order_id, quote_id, request_id, quote_request_id, token_out, quoted_amount_out,
         committed_amount_out, order_hash, status, swapper, filler, solver_id, token_in,
        amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order,
        created_at, updated_at)
      select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '0x' || repeat('2', 40), 1, 1,
         '0x' || lpad(to_hex(i), 64, '0'),
        case when i % 500 = 0 then 'open' when i % 50 = 1 then 'expired' when i % 97 = 2 then 'cancelled' else 'filled' end,
        '0x' || lpad(to_hex(i % 2000), 40, '0'), '0x' || lpad(to_hex(i % 40), 40, 'f'), 'ext_s' || (i % 6),
        '0x' || repeat('1', 40), 1, i, 0, '[]', '[]', '0x', '0x', '0x',
        now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
      from generate_series(1, 200000) as i`);
    await database.query("alter table orders enable trigger user");
    await database.query("analyze orders");
  });
  afterAll(async () => {
    await database?.close();
  });

  // `ordered`: a filter matching many rows reads them from the index in the requested order, so no page sorts them
  // all (for a few rows, as an id list's or a swapper's, PostgreSQL may well fetch and sort).
  it.each([
    ["orderId", "orderId=6f1f2b8e-3d6c-4a39-9d49-1f0e8f6b2d11", "orders_pkey", false],
    [
      "orderIds",
      "orderIds=6f1f2b8e-3d6c-4a39-9d49-1f0e8f6b2d11,7f1f2b8e-3d6c-4a39-9d49-1f0e8f6b2d11",
      "orders_pkey",
      false,
    ],
    ["orderHash", `orderHash=0x${"0".repeat(60)}abcd`, "orders_order_hash_unique", false],
    [
      "orderHashes",
      `orderHashes=0x${"0".repeat(60)}abcd,0x${"0".repeat(60)}abce`,
      "orders_order_hash_unique",
      false,
    ],
    ["orderStatus", "orderStatus=open", "orders_status_(created|updated)_idx", true],
    ["swapper", `swapper=0x${"0".repeat(37)}7d0`, "orders_swapper_created_idx", false],
    ["filler", `filler=0x${"f".repeat(38)}13`, "orders_filler_created_idx", true],
    ["solverId + orderStatus", "solverId=ext_s1&orderStatus=open", "orders_solver_status_idx", false],
    ["orderStatus, by updatedAt", "orderStatus=open&sortKey=updatedAt", "orders_status_updated_idx", true],
  ])("serves the %s filter from an index", async (_label, query, indexName, ordered) => {
    const parsed = OrdersQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
    const { text, params } = pageSql(parsed, undefined, 1000);
    const plan = await database.query<{ "QUERY PLAN": string }>(`explain ${text}`, params);
    const lines = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(lines).toMatch(
      new RegExp(`(Index Scan using|Index Only Scan using|Bitmap Index Scan on) ${indexName}\\b`),
    );
    if (ordered) expect(lines).not.toMatch(/Sort/);
    expect(lines).not.toMatch(/Seq Scan on orders/);
  });
});

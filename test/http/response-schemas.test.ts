// Every route's real answers against the response schemas it declares, on the partner app and the swap app: good and
// bad requests to each route, streamed and prepared-bytes answers included (/points/vault/{address}/current, long
// /orders lists, /entities/*, /quote). An answer with a status its route does not declare, or a body that does not
// match the declared schema of its status, fails; so does an answer whose status or error code the OpenAPI document
// does not list for its operation, and a route no request reached.
import { randomUUID } from "node:crypto";
import { type Address, type Hex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { DevFaucet, faucetAssetsFor } from "../../src/devnet/faucet.ts";
import type { Lifecycle } from "../../src/http/lifecycle.ts";
import type { App } from "../../src/http/server.ts";
import { PAGE_SIZE } from "../../src/orders/list.ts";
import { SolverLogoStore } from "../../src/solvers/logos.ts";
import { discountBody } from "../liquidity/worked-example.ts";
import { address, loadSnapshot, registerVault, row } from "../points/support.ts";
import { FIXTURE_TREE, fixtureOverlay } from "../registry/support.ts";
import { addressFromSeed, useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { indexUntilCaughtUp, quoteRequestBody, signedQuote } from "../support/orders.ts";
import { importRegistry } from "../support/registry.ts";
import { signRequest } from "../support/requests.ts";
import { installResponseSchemaCheck, type ResponseSchemaCheck } from "../support/response-schemas.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp, testDeployment } from "../support/swap.ts";

/**
 * Routes without a response schema on purpose: the Prometheus text, the document and its docs page, the devnet's demo
 * page (HTML and its script), CORS preflights.
 */
const UNDECLARED = /^(GET (\/metrics|\/api\/v1\/openapi\.json|\/api\/v1\/docs\b|\/demo\b)|OPTIONS \*$)/;

const VAULT = address("a", 1);
const RECEIVER = address("b", 1);
const INTERNAL_CREDENTIALS = { "x-solver-id": "int_gamma", "x-rfq-shared-secret": "secret-int_gamma" };

const chain = useTestChain();

describe("every route's real answers match the schemas it declares", () => {
  let check: ResponseSchemaCheck;
  let partnerDatabase: Database;
  let partner: App;
  const partnerClock = new ManualClock();
  let lifecycle: Lifecycle;
  let swapDatabase: Database;
  let swap: SwapTestApp;
  let swapClock: ManualClock;
  let alpha: ScriptedSolver;
  let gamma: ScriptedSolver;

  /** Sends a checked request and expects its status (the branch the test meant to reach). */
  async function expectAnswer(
    app: App,
    status: number,
    method: "GET" | "POST",
    url: string,
    options: { payload?: unknown; headers?: Record<string, string> } = {},
  ) {
    const response = await check.inject(app, {
      method,
      url,
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(status);
    return response;
  }

  beforeAll(async () => {
    check = installResponseSchemaCheck();

    // The partner app: the registry and points routes, and the dev helpers refused (not a local deployment).
    partnerDatabase = await createTestDatabase("pglite");
    const partnerSluice = await createTestServer(partnerDatabase, {
      clock: partnerClock,
      deployment: unstartedDeployment(placeholderDeployment({ local: false })),
    });
    partner = partnerSluice.app;
    lifecycle = partnerSluice.sluice.parts.lifecycle;

    // The swap app: an external quoting solver with a logo, an internal declining one, and a faucet.
    swapDatabase = await createTestDatabase("pglite");
    const filler = chain.core.executors[0]!;
    alpha = await startScriptedSolver({
      kind: "quote",
      filler,
      amountOut: (request) => (BigInt(request.amount) * 98n) / 100n / 10n ** 12n,
    });
    gamma = await startScriptedSolver({ kind: "decline" });
    const solvers = [
      { id: "ext_alpha", endpoint: alpha.url, logo: "sluice-alpha" },
      { id: "int_gamma", endpoint: gamma.url, internal: true },
    ];
    const deployment = testDeployment(chain, solvers);
    const faucet = new DevFaucet({
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      owner: chain.accounts.deployer,
      assets: faucetAssetsFor(deployment),
      pollingIntervalMs: 20,
    });
    swapClock = new ManualClock(Number(await chain.now()) * 1000);
    swap = await createSwapTestApp(chain, swapDatabase, {
      clock: swapClock,
      solvers,
      faucet,
    });
    check.uninstall();
  });

  afterAll(async () => {
    check?.uninstall();
    await partner?.close();
    await swap?.close();
    await Promise.all([alpha?.close(), gamma?.close()]);
    await Promise.all([partnerDatabase?.close(), swapDatabase?.close()]);
  });

  it("on the partner app: registries (prepared bytes, 304), points (streamed), errors in the partner envelope", async () => {
    const app = partner;
    await expectAnswer(app, 404, "GET", "/api/v1/points/total/current");
    await expectAnswer(app, 404, "GET", `/api/v1/points/vault/${VAULT}/current`);

    await importRegistry(partnerDatabase, { registryDir: FIXTURE_TREE, overlay: await fixtureOverlay() });
    await registerVault(partnerDatabase, VAULT);
    await loadSnapshot(partnerDatabase, "sluice", 100, [
      row(VAULT, RECEIVER, 10n ** 20n),
      row(VAULT, address("b", 2), 5n, "curator"),
    ]);
    await loadSnapshot(partnerDatabase, "other", 120, [row(VAULT, RECEIVER, 7n)], 6);

    for (const list of ["networks", "vaults", "operators", "curators"]) {
      // The registry checks its generation once per second.
      partnerClock.advance(1000);
      const url = `/api/v1/entities/${list}`;
      const full = await expectAnswer(app, 200, "GET", url);
      expect(full.json().length, url).toBeGreaterThan(0);
      await expectAnswer(app, 304, "GET", url, { headers: { "if-none-match": String(full.headers.etag) } });
    }

    const receiver = await expectAnswer(app, 200, "GET", `/api/v1/points/receiver/${RECEIVER}/current`);
    expect(receiver.json().length).toBeGreaterThan(0);
    await expectAnswer(app, 400, "GET", "/api/v1/points/receiver/zz/current");
    const streamed = await expectAnswer(app, 200, "GET", `/api/v1/points/vault/${VAULT}/current`);
    expect(streamed.json().length).toBe(2);
    await expectAnswer(app, 404, "GET", `/api/v1/points/vault/${address("c", 9)}/current`);
    await expectAnswer(app, 200, "GET", `/api/v1/points/vault/${VAULT}/110`);
    await expectAnswer(app, 404, "GET", `/api/v1/points/vault/${address("c", 9)}/110`);
    await expectAnswer(app, 400, "GET", `/api/v1/points/vault/${VAULT}/-1`);
    await expectAnswer(app, 200, "GET", "/api/v1/points/total/current");
    await expectAnswer(app, 200, "GET", "/api/v1/points/total/100");
    await expectAnswer(app, 400, "GET", "/api/v1/points/total/0");
    await expectAnswer(app, 410, "GET", `/api/v1/points/receiver/${RECEIVER}/100`);
    await expectAnswer(app, 410, "GET", "/api/v1/points/receiver/zz/x");

    // Unmatched paths get their family's envelope.
    await expectAnswer(app, 404, "GET", "/api/v1/points");
    await expectAnswer(app, 404, "GET", "/api/v1/entities/planets");
    await expectAnswer(app, 404, "GET", "/api/v1/nowhere");

    // Dev helpers anywhere but a local devnet: 403 before the body is read.
    await expectAnswer(app, 403, "GET", "/api/v1/dev/faucet");
    await expectAnswer(app, 403, "POST", "/api/v1/dev/faucet", { payload: { walletAddress: RECEIVER } });
    await expectAnswer(app, 403, "POST", "/api/v1/dev/fund", { payload: {} });

    // The entry points redirect to the docs page.
    await expectAnswer(app, 302, "GET", "/");
    await expectAnswer(app, 302, "GET", "/api/v1");

    await expectAnswer(app, 200, "GET", "/api/v1/health");
    // Its deployment's RPC is nowhere: not ready (chain-head).
    await expectAnswer(app, 503, "GET", "/api/v1/ready");
    lifecycle.startDraining();
    await expectAnswer(app, 503, "GET", "/api/v1/health");
  });

  it("on the swap app: approvals, quotes, orders (streamed lists too), liquidity, discounts, dev helpers", async () => {
    const app = swap.app;
    const swapper = chain.accounts.swapper.address;
    const rwa = chain.core.tokens.rwa;

    // Ready once the indexer has caught up with the chain, on both listeners.
    await indexUntilCaughtUp(swap.runtime.indexer);
    await expectAnswer(app, 200, "GET", "/api/v1/ready");
    await expectAnswer(swap.internal, 200, "GET", "/api-internal/v1/ready");

    const logo = new SolverLogoStore().byName("sluice-alpha")!.fileName;
    const image = await expectAnswer(app, 200, "GET", `/api/v1/solver-logos/${logo}`);
    await expectAnswer(app, 304, "GET", `/api/v1/solver-logos/${logo}`, {
      headers: { "if-none-match": String(image.headers.etag) },
    });
    await expectAnswer(app, 404, "GET", "/api/v1/solver-logos/nobody.png");

    const approval = {
      walletAddress: swapper,
      chainId: chain.chainId,
      token: rwa,
      amount: "1000000000000000000",
    };
    await expectAnswer(app, 200, "POST", "/api/v1/check_approval", { payload: approval });
    await expectAnswer(app, 400, "POST", "/api/v1/check_approval", { payload: { ...approval, chainId: 1 } });

    // /quote's 200 is written without the checked serializer: what it writes must still match.
    const quoteBody = quoteRequestBody(chain, { amount: 10n ** 18n, swapper });
    const quoted = await expectAnswer(app, 200, "POST", "/api/v1/quote", { payload: quoteBody });
    expect(quoted.json().quotes.length).toBeGreaterThan(0);
    // GET /auctions/{requestId}: not public while its quotes can be taken (its 200 is at the end), unknown, malformed.
    const auction = `/api/v1/auctions/${quoted.json().requestId}`;
    await expectAnswer(app, 409, "GET", auction);
    await expectAnswer(app, 404, "GET", `/api/v1/auctions/${randomUUID()}`);
    await expectAnswer(app, 400, "GET", "/api/v1/auctions/not-a-uuid");
    await expectAnswer(app, 404, "POST", "/api/v1/quote", { payload: { ...quoteBody, amount: "1" } });
    await expectAnswer(app, 400, "POST", "/api/v1/quote", {
      payload: { ...quoteBody, tokenOut: addressFromSeed(9), outputs: [{ token: addressFromSeed(9) }] },
    });
    await expectAnswer(app, 400, "POST", "/api/v1/quote", {
      payload: { ...quoteBody, type: "EXACT_OUTPUT" },
    });

    // POST /order: placed, re-posted, and each refusal.
    const signed = await signedQuote(chain, app);
    const order = { quote: signed.quote, signature: signed.signature };
    const placed = await expectAnswer(app, 200, "POST", "/api/v1/order", { payload: order });
    await expectAnswer(app, 200, "POST", "/api/v1/order", { payload: order });
    await expectAnswer(app, 404, "POST", "/api/v1/order", {
      payload: { ...order, quote: { ...order.quote, quoteId: randomUUID() } },
    });
    const another = await signedQuote(chain, app);
    const changed = { ...another.quote, orderInfo: { ...another.quote.orderInfo, amountIn: "1" } };
    await expectAnswer(app, 400, "POST", "/api/v1/order", {
      payload: { quote: changed, signature: another.signature },
    });
    const forged = await signRequest(
      chain.accounts.other,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      another.request,
    );
    await expectAnswer(app, 400, "POST", "/api/v1/order", {
      payload: { quote: another.quote, signature: forged },
    });

    // GET /orders: one body, a page with a cursor, the solver's kept open orders, and a list streamed whole.
    const orderId = placed.json().orderId as string;
    await expectAnswer(app, 200, "GET", `/api/v1/orders?orderId=${orderId}`);
    // Its trail, on the internal listener.
    await expectAnswer(swap.internal, 200, "GET", `/api-internal/v1/trail?orderId=${orderId}`);
    await expectAnswer(swap.internal, 404, "GET", `/api-internal/v1/trail?requestId=${randomUUID()}`);
    await expectAnswer(swap.internal, 400, "GET", "/api-internal/v1/trail");
    const page = await expectAnswer(app, 200, "GET", `/api/v1/orders?swapper=${swapper}&limit=1`);
    expect(page.json().orders).toHaveLength(1);
    await expectAnswer(app, 200, "GET", "/api/v1/orders?solverId=ext_alpha&orderStatus=open");
    await expectAnswer(app, 200, "GET", "/api/v1/orders?solverId=ext_alpha&orderStatus=open");
    await expectAnswer(app, 400, "GET", "/api/v1/orders?sort=asc");
    await expectAnswer(app, 400, "GET", `/api/v1/orders?swapper=${swapper}&limit=1&cursor=not-ours`);
    // GET /orders/stream's refusals (its streams are read in test/orders/order-stream*.test.ts).
    await expectAnswer(app, 400, "GET", "/api/v1/orders/stream");
    await expectAnswer(app, 401, "GET", "/api/v1/orders/stream?solverId=ext_alpha");
    await insertOrders(swapDatabase, PAGE_SIZE + 10);
    const long = await expectAnswer(app, 200, "GET", "/api/v1/orders?solverId=ext_many&orderStatus=open");
    expect(long.headers["transfer-encoding"]).toBe("chunked");
    expect(long.json().orders).toHaveLength(PAGE_SIZE + 10);
    // POST /cancel: the placed order's transaction, an unknown order, a bad body, an order no longer open.
    await expectAnswer(app, 200, "POST", "/api/v1/cancel", { payload: { orderId } });
    await expectAnswer(app, 404, "POST", "/api/v1/cancel", { payload: { orderId: randomUUID() } });
    await expectAnswer(app, 400, "POST", "/api/v1/cancel", { payload: { orderId: "42" } });
    const [ended] = await swapDatabase.query<{ order_id: string }>(
      "update orders set status = 'expired' where order_id = (select order_id from orders where solver_id = 'ext_many' limit 1) returning order_id",
    );
    await expectAnswer(app, 409, "POST", "/api/v1/cancel", { payload: { orderId: ended!.order_id } });

    await expectAnswer(app, 200, "POST", "/api/v1/liquidity", { payload: { tokenIn: rwa } });
    await expectAnswer(app, 400, "POST", "/api/v1/liquidity", { payload: { tokenIn: addressFromSeed(5) } });
    await expectAnswer(app, 200, "POST", "/api/v1/liquidity-batch", { payload: { tokensIn: [rwa] } });
    await expectAnswer(app, 200, "GET", "/api/v1/solvers");
    await expectAnswer(app, 200, "GET", "/api/v1/solvers/ext_alpha");
    await expectAnswer(app, 404, "GET", "/api/v1/solvers/nobody");
    await expectAnswer(app, 200, "GET", "/api/v1/deployment");
    await expectAnswer(app, 400, "POST", "/api/v1/liquidity-batch", { payload: { tokensIn: [rwa, rwa] } });

    // POST /discount: published, refused (signature, signer, rule) and a cancel replayed.
    const deadline = Number(await chain.now()) + 3600;
    const adapter = chain.core.adapters.usd;
    const { marketMaker, other } = chain.accounts;
    const published = await discountBody(chain, adapter, marketMaker, { deadline });
    const publishing = await expectAnswer(app, 200, "POST", "/api/v1/discount", { payload: published.body });
    const discountId = publishing.json().discountId as Hex;
    const forgedDiscount = await discountBody(chain, adapter, marketMaker, { deadline }, other);
    await expectAnswer(app, 400, "POST", "/api/v1/discount", { payload: forgedDiscount.body });
    const unauthorized = await discountBody(chain, adapter, other, { deadline });
    await expectAnswer(app, 400, "POST", "/api/v1/discount", { payload: unauthorized.body });
    const expired = await discountBody(chain, adapter, marketMaker, {
      deadline: Number(await chain.now()) - 10,
    });
    await expectAnswer(app, 400, "POST", "/api/v1/discount", { payload: expired.body });
    const cancel = await discountBody(chain, chain.core.adapters.usdt, marketMaker, { deadline: 0 });
    await expectAnswer(app, 200, "POST", "/api/v1/discount", { payload: cancel.body });
    await expectAnswer(app, 409, "POST", "/api/v1/discount", { payload: cancel.body });

    // The internal discount API, on the internal listener: listed, resolved, and refused.
    await expectAnswer(swap.internal, 200, "GET", "/api-internal/v1/discounts", {
      headers: INTERNAL_CREDENTIALS,
    });
    await expectAnswer(swap.internal, 401, "GET", "/api-internal/v1/discounts");
    await expectAnswer(swap.internal, 403, "GET", "/api-internal/v1/discounts", {
      headers: { "x-solver-id": "ext_alpha", "x-rfq-shared-secret": "secret-ext_alpha" },
    });
    await expectAnswer(swap.internal, 200, "GET", "/api-internal/v1/health");
    const resolve = "/api-internal/v1/discounts";
    await expectAnswer(swap.internal, 200, "POST", resolve, {
      headers: INTERNAL_CREDENTIALS,
      payload: { discountId },
    });
    await expectAnswer(swap.internal, 200, "POST", resolve, {
      headers: INTERNAL_CREDENTIALS,
      payload: { discountIds: [discountId] },
    });
    await expectAnswer(swap.internal, 404, "POST", resolve, {
      headers: INTERNAL_CREDENTIALS,
      payload: { discountId: `0x${"ab".repeat(32)}` },
    });
    await expectAnswer(swap.internal, 400, "POST", resolve, {
      headers: INTERNAL_CREDENTIALS,
      payload: { discountId: "x" },
    });

    // The dev helpers on a devnet with a faucet.
    await expectAnswer(app, 200, "GET", "/api/v1/dev/faucet");
    const wallet: Address = other.address;
    await expectAnswer(app, 200, "POST", "/api/v1/dev/faucet", { payload: { walletAddress: wallet } });
    await expectAnswer(app, 200, "POST", "/api/v1/dev/fund", { payload: { walletAddress: wallet } });
    await expectAnswer(app, 400, "POST", "/api/v1/dev/fund", { payload: { walletAddress: zeroAddress } });
    // The demo page's relay: a relayed read, a refused method (JSON-RPC's own error), a body that is not JSON-RPC.
    await expectAnswer(app, 200, "POST", "/api/v1/dev/rpc", {
      payload: { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
    });
    await expectAnswer(app, 200, "POST", "/api/v1/dev/rpc", {
      payload: { jsonrpc: "2.0", id: 2, method: "anvil_setBalance", params: [] },
    });
    await expectAnswer(app, 400, "POST", "/api/v1/dev/rpc", { payload: { method: "eth_chainId" } });

    // Last, since it moves the server's clock past every quote issued so far: an expired quote.
    const late = await signedQuote(chain, app);
    swapClock.advance((swap.deployment.quoteLifetimeSeconds + 1) * 1000);
    await expectAnswer(app, 409, "POST", "/api/v1/order", {
      payload: { quote: late.quote, signature: late.signature },
    });
    // Ten seconds past the first quote's deadline its auction is public.
    swapClock.advance(10_000);
    await expectAnswer(app, 200, "GET", auction);
  });

  // Runs after the two above (vitest keeps a file's order): what they left unreached.
  it("reached every route that declares responses, and only the docs and metrics declare none", () => {
    const routes = [...check.routes.values()];
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((route) => !route.responses).map((route) => route.key);
    expect(undeclared.filter((key) => !UNDECLARED.test(key))).toEqual([]);
    const unreached = routes
      .filter((route) => route.responses && route.answered.size === 0)
      .map((r) => r.key);
    expect(unreached).toEqual([]);
  });
});

/** `count` open orders of solver `ext_many`, written directly: more than a page makes GET /orders stream. */
async function insertOrders(database: Database, count: number): Promise<void> {
  await database.query(
    `insert into orders (order_id, quote_id, request_id, quote_request_id, token_out, quoted_amount_out,
         committed_amount_out, order_hash, status, swapper, filler, solver_id, token_in,
       amount_in, nonce, deadline, signed_outputs, outputs, swapper_signature, protocol_signature, encoded_order,
       created_at, updated_at)
     select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '0x' || repeat('2', 40), 1, 1,
         '0x' || lpad(to_hex(1000000 + i), 64, '0'),
       'open', '0x' || lpad('b0b', 40, '0'), '0x' || lpad('f00', 40, '0'), 'ext_many', '0x' || repeat('1', 40),
       1, i, 1900000000, '[]', '[]', '0x', '0xab', '0xcd',
       timestamptz '2026-01-01' + i * interval '1 millisecond', timestamptz '2026-01-01'
     from generate_series(1, ${count}) as i`,
  );
}

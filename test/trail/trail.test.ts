// An order's trail (GET /api-internal/v1/trail, on the internal listener): a filled order's lists both rounds, the
// signature check, the co-signature and every status change with the fill's block and transaction, each with its
// request id; any request id along the way finds it; a refused signature is on the trail of its call; nothing in it
// names a solver's endpoint or secret.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { runSluice } from "../support/cli.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  indexUntilCaughtUp,
  signedQuote,
  useQuotingSwapApp,
} from "../support/orders.ts";

const chain = useTestChain();

describe.each(databaseKinds)("an order's trail (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    await swap.database.query(
      "truncate orders, order_attempts, order_status_history, order_funding_streaks, reactor_fills, nonce_invalidations, indexed_blocks",
    );
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    await swap.database.query(
      "insert into indexed_blocks (number, hash, parent_hash, timestamp) values ($1, $2, $3, $4)",
      [head.number.toString(), head.hash, head.parentHash, head.timestamp.toString()],
    );
  });

  const indexer = () =>
    new ReactorIndexer({
      orderObserver: new OrderStats(),
      database: swap.database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock: chain.core.startBlock,
      orderEvents: swap.orderEvents,
      clock,
      logger: silentLogger(),
    });

  const internal = () => swap.sluice.internalHttp;
  /** The request id of the /quote round that issued `quoteId`. */
  const requestIdOf = async (quoteId: string) =>
    (
      await swap.database.query<{ request_id: string }>("select request_id from quotes where quote_id = $1", [
        quoteId,
      ])
    )[0]!.request_id;
  const trail = async (query: string) => internal().inject({ url: `/api-internal/v1/trail?${query}` });

  it("lists a filled order's two rounds, checks and status changes with the fill's block and transaction", async () => {
    const { quote, signature } = await signedQuote(chain, swap.app);
    const quoted = await swap.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote, signature },
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const orderRequestId = String(quoted.headers["x-request-id"]);
    // Stored by now: /order waited for the round's write.
    const quoteRequestId = await requestIdOf(quote.quoteId);
    const { orderId } = quoted.json();
    // A re-post of the same quote reaches the same order.
    const repost = await swap.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote, signature },
    });
    expect(repost.json().orderId).toBe(orderId);
    const repostRequestId = String(repost.headers["x-request-id"]);

    const stored = await new OrderRepository(swap.database, new OrderEvents(), new OrderStats()).findById(
      orderId,
    );
    const txHash = await fillOrder(chain, stored!);
    const fillBlock = (await chain.publicClient.getTransactionReceipt({ hash: txHash })).blockNumber;
    await indexUntilCaughtUp(indexer());

    const response = await trail(`orderId=${orderId}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const kinds = body.entries.map((entry: { kind: string }) => entry.kind);
    expect(kinds).toEqual([
      "quote-round",
      "signature-check",
      "hard-round",
      "co-signature",
      "status",
      "order-post",
      "status",
    ]);
    const [round, check, hard, cosign, created, post, filled] = body.entries;
    expect(round).toMatchObject({
      kind: "quote-round",
      requestId: quoteRequestId,
      swapper: chain.accounts.swapper.address.toLowerCase(),
      answers: [{ solverId: "ext_scripted", outcome: "quoted", reason: null }],
      quotes: [{ quoteId: quote.quoteId, solverId: "ext_scripted", rank: 0 }],
    });
    expect(round.answers[0].latencyMs).toBeGreaterThanOrEqual(0);
    expect(check).toMatchObject({
      requestId: orderRequestId,
      quoteId: quote.quoteId,
      passed: true,
      detail: "ecdsa",
    });
    expect(hard).toMatchObject({
      requestId: orderRequestId,
      answers: [{ solverId: "ext_scripted", outcome: "quoted" }],
    });
    expect(cosign).toMatchObject({ requestId: orderRequestId, signer: chain.accounts.protocol.address });
    expect(created).toMatchObject({
      requestId: orderRequestId,
      orderId,
      from: null,
      to: "open",
      txHash: null,
    });
    expect(post).toMatchObject({ requestId: repostRequestId, orderId });
    expect(filled).toMatchObject({
      requestId: null,
      orderId,
      from: "open",
      to: "filled",
      reason: "Fill event",
      blockNumber: fillBlock.toString(),
      txHash,
    });
    expect(body.orders).toEqual([
      expect.objectContaining({
        orderId,
        quoteId: quote.quoteId,
        status: "filled",
        txHash,
        solverId: "ext_scripted",
      }),
    ]);

    // Any request id along the way finds the same order's trail.
    for (const requestId of [quoteRequestId, orderRequestId, repostRequestId]) {
      const found = await trail(`requestId=${requestId}`);
      expect(found.statusCode, requestId).toBe(200);
      expect(found.json().orders.map((order: { orderId: string }) => order.orderId)).toEqual([orderId]);
      expect(found.json().entries.length).toBe(body.entries.length);
    }

    // Nothing names where the solver is, or its secret.
    const solverUrl = new URL(swap.solver.url);
    expect(response.body).not.toContain(solverUrl.host);
    expect(response.body).not.toContain("secret-ext_scripted");
  });

  it("keeps a refused signature on the trail of its call, with its fault", async () => {
    const { quote } = await signedQuote(chain, swap.app);
    const other = await signedQuote(chain, swap.app);
    const refused = await swap.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote, signature: other.signature },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    const requestId = String(refused.headers["x-request-id"]);
    const response = await trail(`requestId=${requestId}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.orders).toEqual([]);
    expect(body.entries.map((entry: { kind: string }) => entry.kind)).toEqual([
      "quote-round",
      "signature-check",
    ]);
    expect(body.entries[1]).toMatchObject({
      requestId,
      quoteId: quote.quoteId,
      passed: false,
      detail: "not_the_signer",
    });
  });

  it("answers 404 TRAIL_NOT_FOUND for ids nothing recorded, and 400 without exactly one id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const query of [`orderId=${unknown}`, `requestId=${unknown}`]) {
      const response = await trail(query);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("TRAIL_NOT_FOUND");
    }
    expect((await trail("")).statusCode).toBe(400);
    expect((await trail(`orderId=${unknown}&requestId=${unknown}`)).statusCode).toBe(400);
    // Not on the public listener.
    expect((await swap.app.inject({ url: `/api/v1/trail?orderId=${unknown}` })).statusCode).toBe(404);
    expect((await swap.app.inject({ url: `/api-internal/v1/trail?orderId=${unknown}` })).statusCode).toBe(
      404,
    );
  });

  it("is printed by `sluice trail <id>` from the internal listener, by order id or request id", async () => {
    const { quote, signature } = await signedQuote(chain, swap.app);
    const placed = await swap.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote, signature },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId } = placed.json();
    const requestId = String(placed.headers["x-request-id"]);
    // Listening until the suite's server stops (last in the suite: a closed server answers no inject).
    await internal().listen({ port: 0, host: "127.0.0.1" });
    {
      const internalUrl = `http://127.0.0.1:${(internal().server.address() as AddressInfo).port}/api-internal/v1`;
      const text = await runSluice(["trail", orderId, "--internal-url", internalUrl]);
      expect(text.stderr).toBe("");
      expect(text.code).toBe(0);
      const lines = text.stdout.trim().split("\n");
      expect(lines[0]).toContain(`order ${orderId}: open, solver ext_scripted`);
      expect(text.stdout).toMatch(/quote round +request [0-9a-f-]{36}/);
      expect(text.stdout).toMatch(new RegExp(`signature check +request ${requestId} +passed \\(ecdsa\\)`));
      expect(text.stdout).toMatch(new RegExp(`hard round +request ${requestId}`));
      expect(text.stdout).toContain(`signed by ${chain.accounts.protocol.address}`);
      expect(text.stdout).toMatch(/ext_scripted +quoted \d+ in [\d.]+ ms/);
      expect(text.stdout).toMatch(/\(new\) → open \(created\)/);
      const json = await runSluice(["trail", requestId, "--internal-url", internalUrl, "--json"]);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).orders[0].orderId).toBe(orderId);
      const missing = await runSluice(["trail", randomUUID(), "--internal-url", internalUrl]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^sluice: nothing is recorded under [0-9a-f-]{36}/);
    }
  });
});

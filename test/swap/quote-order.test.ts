// POST /quote, POST /order and GET /orders through HTTP, on anvil with the project's contracts and scripted solver
// servers, on PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { type Address, parseSignature, serializeSignature } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testERC20Abi } from "../../src/chain/abis.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderRecordSchema, OwnOrdersResponseSchema } from "../../src/orders/schemas.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, MIN_QUOTE_AMOUNT } from "../support/swap.ts";

const ONE_RWA = 10n ** 18n;

/** What an honest solver would quote: the first leg's rate, less a margin in bps. */
function priceFromLegs(request: SolverQuoteRequest, marginBps: bigint): bigint {
  const leg = request.adapters[0]!;
  const gross =
    (BigInt(request.amount) * BigInt(leg.maxRate) * 10n ** BigInt(leg.assetDecimals)) /
    (10n ** 18n * ONE_RWA);
  return (gross * (10_000n - marginBps)) / 10_000n;
}

const chain = useTestChain();

describe.each(databaseKinds)("swap flow over HTTP (%s)", (kind) => {
  let database: Database;
  let app: App;
  let clock: ManualClock;
  let alpha: ScriptedSolver;
  let beta: ScriptedSolver;
  let gamma: ScriptedSolver;
  const honest = (marginBps: bigint) => ({
    kind: "quote" as const,
    filler: "",
    amountOut: (r: SolverQuoteRequest) => priceFromLegs(r, marginBps),
  });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    alpha = await startScriptedSolver({ kind: "decline" });
    beta = await startScriptedSolver({ kind: "decline" });
    gamma = await startScriptedSolver({ kind: "decline" }, "/base/path");
    clock = new ManualClock(Date.now());
    ({ app } = await createSwapTestApp(chain, database, {
      clock,
      solvers: [
        { id: "ext_alpha", endpoint: alpha.url, logo: "sluice-alpha" },
        { id: "ext_beta", endpoint: beta.url },
        { id: "int_gamma", endpoint: gamma.url, internal: true, enabled: true },
      ],
    }));
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
    await database?.close();
  });

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    const filler = chain.core.executors[0]!;
    alpha.setBehaviour({ ...honest(10n), filler });
    beta.setBehaviour({ ...honest(30n), filler });
    gamma.setBehaviour({ kind: "decline" });
  });

  const quoteBody = (overrides: Record<string, unknown> = {}) => ({
    tokenInChainId: chain.chainId,
    tokenOutChainId: chain.chainId,
    tokenIn: chain.core.tokens.rwa,
    tokenOut: chain.core.tokens.usd,
    type: "EXACT_INPUT",
    amount: (1000n * ONE_RWA).toString(),
    swapper: chain.accounts.swapper.address,
    outputs: [{ token: chain.core.tokens.usd }],
    ...overrides,
  });

  const postQuote = (body: unknown) =>
    app.inject({ method: "POST", url: "/api/v1/quote", payload: body as object });
  const postOrder = (body: unknown) =>
    app.inject({ method: "POST", url: "/api/v1/order", payload: body as object });

  async function quoteAndSign(overrides: Record<string, unknown> = {}, signer = chain.accounts.swapper) {
    const response = await postQuote(quoteBody(overrides));
    expect(response.statusCode, response.body).toBe(200);
    const body = QuoteResponseSchema.parse(response.json());
    const entry = body.quotes[0]!;
    const signature = await signRequest(
      signer,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    return { body, entry, signature };
  }

  it("documents the swap routes in the OpenAPI document", async () => {
    const response = await app.inject({ url: "/api/v1/openapi.json" });
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json();
    for (const path of ["/quote", "/order", "/check_approval"])
      expect(document.paths[path].post).toBeDefined();
    const orders = document.paths["/orders"].get;
    expect(orders.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        "orderId",
        "orderIds",
        "orderHash",
        "orderHashes",
        "orderStatus",
        "swapper",
        "filler",
        "solverId",
        "sortKey",
      ]),
    );
    expect(document.components.schemas.QuoteResponse).toBeDefined();
  });

  describe("POST /quote", () => {
    it("answers every solver's quote, best first, each its own signable entry", async () => {
      const response = await postQuote(
        quoteBody({
          swapper: chain.accounts.swapper.address.toUpperCase().replace("0X", "0x"),
          slippageTolerance: "0.5",
        }),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["x-request-id"]).toBe(response.json().requestId);
      // The real document requires `routing` (the spec is silent): always "Priority".
      expect(response.json().routing).toBe("Priority");
      const body = QuoteResponseSchema.parse(response.json());
      // Written without a schema check: it must already be exactly what the schema would give (lowercase
      // addresses, no extra keys).
      expect(response.json()).toStrictEqual(body);
      expect(body.quotes.map((q) => q.solver.id)).toEqual(["ext_alpha", "ext_beta"]);
      const [best, second] = body.quotes;
      expect(BigInt(best!.quote.aggregatedOutputs[0]!.amount)).toBeGreaterThan(
        BigInt(second!.quote.aggregatedOutputs[0]!.amount),
      );
      expect(best!.quote.quoteId).not.toBe(second!.quote.quoteId);
      expect(best!.quote.orderInfo.nonce).not.toBe(second!.quote.orderInfo.nonce);
      expect(best!.quote.orderInfo.deadline).toBe(Math.floor(clock.now().getTime() / 1000) + 120);
      expect(best!.quote.orderInfo.outputs).toEqual([
        {
          token: chain.core.tokens.usd.toLowerCase(),
          recipient: chain.accounts.swapper.address.toLowerCase(),
          amount: best!.quote.aggregatedOutputs[0]!.amount,
        },
      ]);
      expect(best!.signatureData).toMatchObject({
        primaryType: "Request",
        domain: {
          name: "Reactor",
          version: "1",
          chainId: chain.chainId,
          verifyingContract: chain.core.reactor.toLowerCase(),
        },
        value: {
          protocol: chain.accounts.protocol.address.toLowerCase(),
          deadline: String(best!.quote.orderInfo.deadline),
        },
      });
      expect(best!.solver.metadata.logoUrl).toMatch(
        /^http:\/\/localhost(:\d+)?\/api\/v1\/solver-logos\/sluice-alpha-[0-9a-f]{64}\.png$/,
      );
      expect(second!.solver.metadata).toEqual({});
      // Each solver got its own quote id in the one auction's request id, with the legs it may use.
      const seen = alpha.requests.at(-1)!.body;
      expect(seen.requestId).toBe(body.requestId);
      expect(seen.quoteId).toBe(best!.quote.quoteId);
      expect(seen.adapters).toEqual([
        expect.objectContaining({
          adapter: chain.core.adapters.usd.toLowerCase(),
          asset: chain.core.tokens.usd.toLowerCase(),
          assetDecimals: 6,
        }),
      ]);
      expect(alpha.requests.at(-1)!.secret).toBe("secret-ext_alpha");
    });

    it("splits fee outputs by portionBps, rounding down, the remainder taking the rest", async () => {
      const feeRecipient = chain.accounts.feeRecipient.address.toLowerCase();
      alpha.setBehaviour({ kind: "quote", filler: chain.core.executors[0]!, amountOut: () => 1_000_001n });
      beta.setBehaviour({ kind: "decline" });
      const response = await postQuote(
        quoteBody({
          outputs: [
            { token: chain.core.tokens.usd, recipient: feeRecipient, portionBps: 25 },
            { token: chain.core.tokens.usd },
          ],
        }),
      );
      expect(response.statusCode, response.body).toBe(200);
      const outputs = response.json().quotes[0].quote.orderInfo.outputs;
      expect(outputs).toEqual([
        {
          token: chain.core.tokens.usd.toLowerCase(),
          recipient: feeRecipient,
          amount: "2500",
          portionBps: 25,
        },
        {
          token: chain.core.tokens.usd.toLowerCase(),
          recipient: chain.accounts.swapper.address.toLowerCase(),
          amount: "997501",
        },
      ]);
    });

    it.each([
      ["a chain id of another chain", { tokenInChainId: 1 }, 400, "UNSUPPORTED_CHAIN"],
      ["a tokenOutChainId of another chain", { tokenOutChainId: 1 }, 400, "UNSUPPORTED_CHAIN"],
      ["an unsupported input token", { tokenIn: `0x${"1".repeat(40)}` }, 400, "UNSUPPORTED_TOKEN"],
      [
        "an unsupported output token",
        { tokenOut: `0x${"2".repeat(40)}`, outputs: [{ token: `0x${"2".repeat(40)}` }] },
        400,
        "UNSUPPORTED_TOKEN",
      ],
      [
        "an output of another token",
        { outputs: [{ token: `0x${"3".repeat(40)}` }] },
        400,
        "VALIDATION_FAILED",
      ],
      ["two remainder outputs", { outputs: [{ token: "USD" }, { token: "USD" }] }, 400, "VALIDATION_FAILED"],
      [
        "fees of 10000 bps",
        {
          outputs: [
            { token: "USD", portionBps: 9999, recipient: `0x${"4".repeat(40)}` },
            { token: "USD", portionBps: 1 },
            { token: "USD" },
          ],
        },
        400,
        "VALIDATION_FAILED",
      ],
      ["an EXACT_OUTPUT type", { type: "EXACT_OUTPUT" }, 400, "VALIDATION_FAILED"],
      ["a fractional amount", { amount: "1.5" }, 400, "VALIDATION_FAILED"],
      ["an empty solverIds", { solverIds: [] }, 400, "VALIDATION_FAILED"],
      [
        "51 solverIds",
        { solverIds: Array.from({ length: 51 }, (_, i) => `ext_${i}`) },
        400,
        "VALIDATION_FAILED",
      ],
      ["another routing preference", { routingPreference: "FASTEST" }, 400, "VALIDATION_FAILED"],
      ["a chain id above 2^53", { tokenInChainId: 2 ** 53 }, 400, "VALIDATION_FAILED"],
      ["an amount below the minimum", { amount: "999" }, 404, "NO_QUOTES"],
      ["only unknown solver ids", { solverIds: ["ext_nobody"] }, 404, "NO_QUOTES"],
      // Once a 500 (the round could not be stored), and with quoting solvers a 200 whose quotes /order did not know.
      ["a NUL byte in the only solver id", { solverIds: ["ext_nobody\u0000"] }, 400, "VALIDATION_FAILED"],
      [
        "a NUL byte in one solver id among quoting ones",
        { solverIds: ["ext_alpha", "ext_beta\u0000"] },
        400,
        "VALIDATION_FAILED",
      ],
      ["a control character in a solver id", { solverIds: ["ext_\u001balpha"] }, 400, "VALIDATION_FAILED"],
    ])("answers %s with %i %s", async (_label, overrides, status, code) => {
      const usd = chain.core.tokens.usd;
      const body: Record<string, unknown> = quoteBody(overrides);
      body.outputs = (body.outputs as Array<Record<string, unknown>>).map((o) =>
        o.token === "USD" ? { ...o, token: usd } : o,
      );
      const response = await postQuote(body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error.code).toBe(code);
      if (status === 404) expect(response.json().error.message).toBe("No quotes available");
    });

    it("says what the minimum is when the amount is below it, in base units with the token's decimals", async () => {
      const response = await postQuote(quoteBody({ amount: "999" }));
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.details).toEqual({
        reason: "amount below the input token's minimum",
        tokenIn: chain.core.tokens.rwa.toLowerCase(),
        symbol: "tRWA",
        decimals: 18,
        minimumAmount: MIN_QUOTE_AMOUNT.toString(),
      });
    });

    it("answers 404 when every solver declines, and restricts the auction to solverIds", async () => {
      alpha.setBehaviour({ kind: "decline" });
      beta.setBehaviour({ kind: "decline" });
      expect((await postQuote(quoteBody())).statusCode).toBe(404);
      alpha.setBehaviour({ ...honest(10n), filler: chain.core.executors[0]! });
      beta.setBehaviour({ ...honest(0n), filler: chain.core.executors[0]! });
      const response = await postQuote(quoteBody({ solverIds: ["ext_alpha", "ext_nobody"] }));
      expect(response.json().quotes.map((q: { solver: { id: string } }) => q.solver.id)).toEqual([
        "ext_alpha",
      ]);
    });
  });

  describe("POST /order", () => {
    it("creates an open order, counter-signed, and answers re-posts with the same order", async () => {
      const { entry, signature } = await quoteAndSign();
      const response = await postOrder({ quote: { ...entry.quote, slippageTolerance: "0.5" }, signature });
      expect(response.statusCode, response.body).toBe(200);
      const created = response.json();
      expect(created).toEqual({
        requestId: response.headers["x-request-id"],
        orderId: expect.any(String),
        orderStatus: "open",
      });

      // The same signature, and a byte-different encoding of it (yParity instead of v), return the same order.
      const again = await postOrder({ quote: entry.quote, signature });
      expect(again.json().orderId).toBe(created.orderId);
      const parsed = parseSignature(signature);
      const reencoded =
        serializeSignature({ r: parsed.r, s: parsed.s, yParity: parsed.yParity! }).slice(0, 130) +
        (parsed.yParity ? "01" : "00");
      expect(reencoded).not.toBe(signature);
      const third = await postOrder({ quote: entry.quote, signature: reencoded });
      expect(third.json().orderId).toBe(created.orderId);

      const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
      const stored = await repository.findById(created.orderId);
      expect(stored).toMatchObject({
        quoteId: entry.quote.quoteId,
        status: "open",
        solverId: "ext_alpha",
        requestId: created.requestId,
      });
      const attempts = await repository.attempts(created.orderId);
      expect(attempts.map((a) => a.requestId)).toEqual([again.json().requestId, third.json().requestId]);
      expect(
        (await repository.history(created.orderId)).map((h) => [h.fromStatus, h.toStatus, h.reason]),
      ).toEqual([[null, "open", "created"]]);
    });

    it("answers 404 for an unknown quote id", async () => {
      const { entry, signature } = await quoteAndSign();
      const response = await postOrder({ quote: { ...entry.quote, quoteId: randomUUID() }, signature });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("QUOTE_NOT_FOUND");
    });

    it("answers 409 once the quote has expired, but still returns an existing order", async () => {
      const { entry, signature } = await quoteAndSign();
      const { entry: other, signature: otherSignature } = await quoteAndSign();
      const created = await postOrder({ quote: other.quote, signature: otherSignature });
      clock.set((entry.quote.orderInfo.deadline + 1) * 1000);
      const expired = await postOrder({ quote: entry.quote, signature });
      expect(expired.statusCode).toBe(409);
      expect(expired.json().error.code).toBe("QUOTE_EXPIRED");
      const repost = await postOrder({ quote: other.quote, signature: otherSignature });
      expect(repost.statusCode).toBe(200);
      expect(repost.json().orderId).toBe(created.json().orderId);
    });

    it("answers 400 QUOTE_MISMATCH when the terms differ, compared by meaning", async () => {
      const { entry, signature } = await quoteAndSign();
      const changed = structuredClone(entry.quote);
      changed.orderInfo.outputs[0]!.amount = (BigInt(changed.orderInfo.outputs[0]!.amount) + 1n).toString();
      const response = await postOrder({ quote: changed, signature });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("QUOTE_MISMATCH");
      expect(response.json().error.details.issues).toEqual([
        { path: "quote.orderInfo.outputs.0.amount", message: expect.any(String) },
      ]);
      // Upper-case addresses and a leading zero are the same terms.
      const same = structuredClone(entry.quote);
      same.orderInfo.tokenIn = same.orderInfo.tokenIn.toUpperCase().replace("0X", "0x") as Address;
      same.orderInfo.amountIn = `0${same.orderInfo.amountIn}`;
      const ok = await postOrder({ quote: same, signature });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it("answers 400 INVALID_SIGNATURE for a signature by someone else", async () => {
      const { entry } = await quoteAndSign();
      const signature = await signRequest(
        chain.accounts.other,
        { chainId: chain.chainId, reactor: chain.core.reactor },
        requestFromSignatureData(entry.signatureData.value),
      );
      const response = await postOrder({ quote: entry.quote, signature });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("INVALID_SIGNATURE");
      const garbage = await postOrder({ quote: entry.quote, signature: "0x1234" });
      expect(garbage.statusCode).toBe(400);
    });

    it("answers 409 when no solver can meet the quote any more", async () => {
      const { entry, signature } = await quoteAndSign();
      alpha.setBehaviour({ ...honest(500n), filler: chain.core.executors[0]! });
      beta.setBehaviour({ kind: "status", status: 500 });
      const response = await postOrder({ quote: entry.quote, signature });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe("QUOTE_UNAVAILABLE");
    });

    it("commits a better hard round to the remainder output, keeping fees at their signed amounts", async () => {
      const feeRecipient = chain.accounts.feeRecipient.address;
      alpha.setBehaviour({ kind: "quote", filler: chain.core.executors[0]!, amountOut: () => 1_000_000n });
      beta.setBehaviour({ kind: "decline" });
      const { entry, signature } = await quoteAndSign({
        outputs: [
          { token: chain.core.tokens.usd, recipient: feeRecipient, portionBps: 100 },
          { token: chain.core.tokens.usd },
        ],
      });
      beta.setBehaviour({ kind: "quote", filler: chain.core.executors[0]!, amountOut: () => 1_000_500n });
      const response = await postOrder({ quote: entry.quote, signature });
      expect(response.statusCode, response.body).toBe(200);
      const order = await new OrderRepository(database, new OrderEvents(), new OrderStats()).findById(
        response.json().orderId,
      );
      expect(order?.solverId).toBe("ext_beta");
      expect(order?.outputs.map((o) => o.amount)).toEqual(["10000", "990500"]);
      expect(order?.signedOutputs.map((o) => o.amount)).toEqual(["10000", "990000"]);
    });

    it("answers 409 when the swapper has already used the nonce on-chain", async () => {
      const { entry, signature } = await quoteAndSign();
      const wallet = chain.wallet(chain.accounts.swapper);
      const { reactorAbi } = await import("../../src/chain/abis.ts");
      const hash = await wallet.writeContract({
        address: chain.core.reactor,
        abi: reactorAbi,
        functionName: "invalidateNonce",
        args: [BigInt(entry.quote.orderInfo.nonce)],
      });
      await chain.publicClient.waitForTransactionReceipt({ hash });
      const response = await postOrder({ quote: entry.quote, signature });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe("QUOTE_UNAVAILABLE");
    });
  });

  describe("POST /check_approval", () => {
    const check = (walletAddress: Address, amount: bigint, extra: Record<string, unknown> = {}) =>
      app.inject({
        method: "POST",
        url: "/api/v1/check_approval",
        payload: {
          walletAddress,
          chainId: chain.chainId,
          token: chain.core.tokens.rwa,
          amount: amount.toString(),
          ...extra,
        },
      });

    it("answers the three allowance cases", async () => {
      const swapper = chain.accounts.swapper;
      const none = await check(swapper.address, 100n);
      expect(none.statusCode, none.body).toBe(200);
      expect(none.json()).toMatchObject({
        cancel: null,
        approval: { to: chain.core.tokens.rwa.toLowerCase(), value: "0" },
      });
      expect(none.json().approval.data).toMatch(/^0x095ea7b3/);
      expect(none.json().approval.data.endsWith("f".repeat(64))).toBe(true);

      const wallet = chain.wallet(swapper);
      const approve = async (value: bigint) => {
        const hash = await wallet.writeContract({
          address: chain.core.tokens.rwa,
          abi: testERC20Abi,
          functionName: "approve",
          args: [chain.core.reactor, value],
        });
        await chain.publicClient.waitForTransactionReceipt({ hash });
      };
      await approve(50n);
      const short = await check(swapper.address, 100n);
      expect(short.json().cancel.data).toBe(
        `0x095ea7b3${chain.core.reactor.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}`,
      );
      expect(short.json().approval).not.toBeNull();

      await approve(100n);
      expect((await check(swapper.address, 100n)).json()).toMatchObject({ cancel: null, approval: null });
    });

    it("rejects another chain and an unsupported token", async () => {
      const chainMismatch = await check(chain.accounts.swapper.address, 1n, { chainId: 1 });
      expect(chainMismatch.statusCode).toBe(400);
      expect(chainMismatch.json().error.code).toBe("UNSUPPORTED_CHAIN");
      const token = await check(chain.accounts.swapper.address, 1n, { token: chain.core.tokens.usdt });
      expect(token.statusCode).toBe(400);
      expect(token.json().error.code).toBe("UNSUPPORTED_TOKEN");
    });
  });

  describe("GET /orders", () => {
    it("filters, pages and shows execution fields only to the assigned solver on its open orders", async () => {
      // swapper2 trades only here, so its list is exactly these orders whatever other tests stored.
      const swapper = chain.accounts.swapper2;
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { entry, signature } = await quoteAndSign({ swapper: swapper.address }, swapper);
        created.push((await postOrder({ quote: entry.quote, signature })).json().orderId);
        clock.advance(1000);
      }
      const list = async (query: string) => {
        const response = await app.inject({ url: `/api/v1/orders?${query}` });
        expect(response.statusCode, response.body).toBe(200);
        return OwnOrdersResponseSchema.parse(response.json());
      };
      const bySwapper = await list(`swapper=${swapper.address}`);
      expect(bySwapper.orders.map((o) => o.orderId)).toEqual([...created].reverse());
      expect(bySwapper.cursor).toBeNull();
      for (const order of bySwapper.orders) {
        expect(OrderRecordSchema.strict().safeParse(order).success).toBe(true);
        expect(order.encodedOrder).toBeUndefined();
      }

      const mine = await list(
        `orderStatus=open&solverId=ext_alpha&orderIds=${created[0]},${created[1]}&orderIds=${created[2]}`,
      );
      expect(mine.orders).toHaveLength(3);
      expect(mine.orders[0]).toMatchObject({
        filler: chain.core.executors[0]!.toLowerCase(),
        encodedOrder: expect.stringMatching(/^0x/),
        protocolSignature: expect.stringMatching(/^0x/),
        deadline: expect.any(Number),
      });
      const notMine = await list(`swapper=${swapper.address}&orderStatus=open&solverId=ext_beta`);
      expect(notMine.orders).toHaveLength(0);

      const page1 = await list(`swapper=${swapper.address}&limit=2&sort=asc`);
      expect(page1.orders.map((o) => o.orderId)).toEqual(created.slice(0, 2));
      expect(page1.cursor).toEqual(expect.any(String));
      const page2 = await list(`swapper=${swapper.address}&limit=2&sort=asc&cursor=${page1.cursor}`);
      expect(page2.orders.map((o) => o.orderId)).toEqual(created.slice(2));
      expect(page2.cursor).toBeNull();

      const byHash = await list(
        `orderHash=${bySwapper.orders[0]!.orderHash.toUpperCase().replace("0X", "0x")}`,
      );
      expect(byHash.orders.map((o) => o.orderId)).toEqual([created[2]]);
    });

    it.each([
      ["no filter", "", "MISSING_FILTER"],
      ["only solverId and sortKey", "solverId=ext_alpha&sortKey=updatedAt", "MISSING_FILTER"],
      ["insufficient-funds as a filter", "orderStatus=insufficient-funds", "VALIDATION_FAILED"],
      ["a bad order id", "orderId=42", "VALIDATION_FAILED"],
      [
        "51 order ids",
        `orderIds=${Array.from({ length: 51 }, () => randomUUID()).join(",")}`,
        "VALIDATION_FAILED",
      ],
      ["a bad cursor", "orderStatus=open&limit=1&cursor=bm9wZQ", "VALIDATION_FAILED"],
      ["a limit of 0", "orderStatus=open&limit=0", "VALIDATION_FAILED"],
    ])("answers 400 for %s", async (_label, query, code) => {
      const response = await app.inject({ url: `/api/v1/orders?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe(code);
    });
  });
});

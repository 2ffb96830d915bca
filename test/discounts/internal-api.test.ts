// The internal discount API (/api-internal/v1/discounts) on anvil, on PGlite and PostgreSQL: solver
// authentication, the live list, resolve, and an order filled on-chain through a discount leg with the resolved
// signatures. Last, the real composition root (buildSluice), started, serves every route where it belongs.
import { pino } from "pino";
import { type Address, type Hex, recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import { buildSluice } from "../../src/app/sluice.ts";
import { executorAbi, liquidLaneAdapterAbi, testERC20Abi } from "../../src/chain/abis.ts";
import { adapterDomain, discountSwapTypes } from "../../src/chain/eip712.ts";
import { decodeOrder } from "../../src/chain/order.ts";
import { InternalListenerExposedError, isPrivateHost, readEnv } from "../../src/config/env.ts";
import {
  discountSwapInputOf,
  LiveDiscountListSchema,
  ResolvedDiscountBatchSchema,
  ResolvedDiscountSchema,
} from "../../src/discounts/schemas.ts";
import { silentLogger } from "../../src/logger.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import {
  CAPACITY,
  createExampleApp,
  discountBody,
  exampleDeployment,
  exampleSolvers,
  SOLVER_IDS,
  send,
  useExampleSuite,
  useWorkedExample,
} from "../liquidity/worked-example.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { approveReactor, requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { startScriptedSolver } from "../support/solver-server.ts";

const chain = useTestChain();
const example = useWorkedExample(chain);

const ONE_RWA = 10n ** 18n;
const credentials = (solverId: string, secret = `secret-${solverId}`) => ({
  "x-solver-id": solverId,
  "x-rfq-shared-secret": secret,
});

describe.each(databaseKinds)("internal discount API (%s)", (kind) => {
  const suite = useExampleSuite(kind, chain, example);

  async function publish(deadline?: number) {
    const signed = await discountBody(chain, example.adapters.A4, example.curator, {
      deadline: deadline ?? Number(await chain.now()) + 3600,
    });
    const response = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/discount",
      payload: signed.body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return { ...signed, discountId: response.json().discountId as Hex };
  }
  const list = (headers: Record<string, string> = credentials(SOLVER_IDS.I1)) =>
    suite.subject.internal.inject({ method: "GET", url: "/api-internal/v1/discounts", headers });
  const resolveWith = (payload: object, headers: Record<string, string> = credentials(SOLVER_IDS.I1)) =>
    suite.subject.internal.inject({ method: "POST", url: "/api-internal/v1/discounts", headers, payload });
  const resolve = (discountId: string, headers: Record<string, string> = credentials(SOLVER_IDS.I1)) =>
    resolveWith({ discountId }, headers);

  describe("authentication", () => {
    it.each([
      ["no credentials", {}],
      ["no secret", { "x-solver-id": SOLVER_IDS.I1 }],
      ["a wrong secret", credentials(SOLVER_IDS.I1, "secret-int_i2")],
      ["an unknown solver id", credentials("int_nobody")],
      ["a secret without a solver id", { "x-rfq-shared-secret": "secret-int_i1" }],
    ])("answers 401 UNAUTHORIZED to %s, before looking at the body", async (_name, headers) => {
      for (const response of [await list(headers), await resolve("not even hex", headers)]) {
        expect(response.statusCode).toBe(401);
        expect(response.json().error).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
      }
    });

    it("answers 403 to an external solver with its own secret", async () => {
      const response = await list(credentials(SOLVER_IDS.E1));
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatchObject({
        code: "UNAUTHORIZED",
        details: { solverId: SOLVER_IDS.E1, reason: "external_solver" },
      });
      expect((await resolve(`0x${"0".repeat(64)}`, credentials(SOLVER_IDS.E1))).statusCode).toBe(403);
    });

    it("answers 403 to a disabled internal solver", async () => {
      const disabled = await createExampleApp(chain, suite.database, {
        solvers: exampleSolvers(
          example,
          { I1: suite.solvers.I1.url, I2: suite.solvers.I2.url, E1: suite.solvers.E1.url },
          { I2: false },
        ),
        example,
        clock: suite.clock,
      });
      try {
        const response = await disabled.internal.inject({
          method: "GET",
          url: "/api-internal/v1/discounts",
          headers: credentials(SOLVER_IDS.I2),
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().error.details.reason).toBe("disabled_solver");
      } finally {
        await disabled.close();
      }
    });

    it("answers GET /api-internal/v1/health without credentials (a Sluice addition)", async () => {
      const response = await suite.subject.internal.inject({ method: "GET", url: "/api-internal/v1/health" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ok", timestamp: expect.any(String) });
    });

    it("unknown internal paths get the swap envelope 404", async () => {
      const response = await suite.subject.internal.inject({
        method: "GET",
        url: "/api-internal/v1/nothing",
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("NOT_FOUND");
    });
  });

  describe("list and resolve", () => {
    it("lists the live discounts for an internal solver, in the real document's shape", async () => {
      const protocol = chain.accounts.protocol.address.toLowerCase();
      expect((await list()).json()).toEqual({ protocol, discounts: [] });
      const { discount, discountId } = await publish();
      const response = await list(credentials(SOLVER_IDS.I2));
      expect(response.statusCode).toBe(200);
      const body = LiveDiscountListSchema.strict().parse(response.json());
      expect(body).toEqual({
        protocol,
        discounts: [
          {
            discountId,
            adapter: example.adapters.A4.toLowerCase(),
            tokenToRedeem: chain.core.tokens.rwa.toLowerCase(),
            collateral: chain.core.tokens.usd.toLowerCase(),
            collateralDecimals: 6,
            discount: "5000",
            signer: example.curator.address.toLowerCase(),
            deadline: discount.deadline,
            maxRate: expect.stringMatching(/^[1-9]\d*$/),
            maxAssets: CAPACITY.A4.toString(),
          },
        ],
      });
      expect(Object.keys(body.discounts[0]!).sort()).toEqual(
        [
          "discountId",
          "adapter",
          "tokenToRedeem",
          "collateral",
          "collateralDecimals",
          "discount",
          "signer",
          "deadline",
          "maxRate",
          "maxAssets",
        ].sort(),
      );
    });

    it("narrows the list by the document's query selectors", async () => {
      const { discountId } = await publish();
      const A4 = example.adapters.A4;
      const other = `0x${"ab".repeat(32)}`;
      const ids = async (query: string) => {
        const response = await suite.subject.internal.inject({
          method: "GET",
          url: `/api-internal/v1/discounts?${query}`,
          headers: credentials(SOLVER_IDS.I1),
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().discounts.map((entry: { discountId: string }) => entry.discountId);
      };
      expect(await ids(`discountId=${discountId}`)).toEqual([discountId]);
      expect(await ids(`discountId=${other}`)).toEqual([]);
      expect(await ids(`discountIds=${other},${discountId.toUpperCase().replace("0X", "0x")}`)).toEqual([
        discountId,
      ]);
      expect(await ids(`adapter=${A4}`)).toEqual([discountId]);
      expect(await ids(`adapter=${example.adapters.A1}`)).toEqual([]);
      expect(
        await ids(`adapters=${example.adapters.A1},${A4}&tokensToRedeem=${chain.core.tokens.rwa}`),
      ).toEqual([discountId]);
      expect(await ids(`tokenToRedeem=${chain.core.tokens.usd}`)).toEqual([]);
      for (const bad of ["discountId=0x12", "adapters=0x12,", "tokenToRedeem=nope"]) {
        const response = await suite.subject.internal.inject({
          method: "GET",
          url: `/api-internal/v1/discounts?${bad}`,
          headers: credentials(SOLVER_IDS.I1),
        });
        expect(response.statusCode, bad).toBe(400);
        expect(response.json().error.code).toBe("VALIDATION_FAILED");
      }
    });

    it("resolves a live discount: the signer's signature and a 90 s protocol co-signature", async () => {
      const { discount, discountId, body } = await publish();
      const response = await resolve(discountId.toUpperCase().replace("0X", "0x"));
      expect(response.statusCode, response.body).toBe(200);
      const resolved = ResolvedDiscountSchema.strict().parse(response.json());
      const latest = Number(await chain.now());
      expect(resolved).toMatchObject({
        discountId,
        discount: {
          adapter: example.adapters.A4.toLowerCase(),
          tokenToRedeem: chain.core.tokens.rwa.toLowerCase(),
          discount: "5000",
          signer: example.curator.address.toLowerCase(),
          protocol: chain.accounts.protocol.address.toLowerCase(),
          nonce: discount.nonce.toString(),
          deadline: discount.deadline,
        },
        signerSignature: body.signature.toLowerCase(),
        protocolDeadline: latest + 90,
      });
      const signer = await recoverTypedDataAddress({
        domain: adapterDomain(chain.chainId, example.adapters.A4),
        types: discountSwapTypes,
        primaryType: "DiscountSwap",
        message: {
          discount,
          signerSignature: resolved.signerSignature as Hex,
          protocolDeadline: resolved.protocolDeadline,
        },
        signature: resolved.protocolSignature as Hex,
      });
      expect(signer).toBe(chain.accounts.protocol.address);
    });

    it("resolves by the batch shape with one entry (as vault-solver sends it), by pair and by pairs", async () => {
      const { discountId } = await publish();
      const A4 = example.adapters.A4;
      const rwa = chain.core.tokens.rwa;

      const batch = await resolveWith({ discountIds: [discountId] });
      expect(batch.statusCode, batch.body).toBe(200);
      const { discounts } = ResolvedDiscountBatchSchema.strict().parse(batch.json());
      expect(discounts).toHaveLength(1);
      expect(ResolvedDiscountSchema.strict().parse(discounts[0])).toMatchObject({
        discountId,
        discount: { adapter: A4.toLowerCase() },
      });

      const pair = await resolveWith({ adapter: A4, tokenToRedeem: rwa });
      expect(pair.statusCode, pair.body).toBe(200);
      expect(ResolvedDiscountSchema.strict().parse(pair.json()).discountId).toBe(discountId);

      const pairs = await resolveWith({ adapters: [A4], tokensToRedeem: [rwa] });
      expect(pairs.statusCode, pairs.body).toBe(200);
      expect(pairs.json().discounts.map((entry: { discountId: string }) => entry.discountId)).toEqual([
        discountId,
      ]);

      // Any one not live refuses the batch, naming it; a pair without a discount names the pair.
      const unknown = `0x${"ab".repeat(32)}`;
      const partly = await resolveWith({ discountIds: [discountId, unknown] });
      expect(partly.statusCode).toBe(404);
      expect(partly.json().error.details).toEqual({ discountId: unknown, reason: "unknown" });
      const nonePair = await resolveWith({ adapter: example.adapters.A1, tokenToRedeem: rwa });
      expect(nonePair.statusCode).toBe(404);
      expect(nonePair.json().error.details).toEqual({
        adapter: example.adapters.A1.toLowerCase(),
        tokenToRedeem: rwa.toLowerCase(),
        reason: "unknown",
      });

      for (const bad of [
        {},
        { discountIds: [] },
        { adapters: [A4], tokensToRedeem: [rwa, rwa] },
        { adapter: A4 },
        { discountIds: ["0x12"] },
      ]) {
        const response = await resolveWith(bad);
        expect(response.statusCode, JSON.stringify(bad)).toBe(400);
        expect(response.json().error.code).toBe("VALIDATION_FAILED");
      }
    });

    it("answers 404 for an unknown discount, and for a stored one that is no longer live", async () => {
      const unknown = await resolve(`0x${"ab".repeat(32)}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toMatchObject({ code: "NOT_FOUND", details: { reason: "unknown" } });

      const { discountId } = await publish(Number(await chain.now()) + 30);
      await chain.increaseTime(60);
      await suite.subject.syncHead();
      const expired = await resolve(discountId);
      expect(expired.statusCode).toBe(404);
      expect(expired.json().error.details.reason).toBe("expired");
      expect((await list()).json().discounts).toEqual([]);
    });

    it("rejects a malformed discount id with 400 VALIDATION_FAILED", async () => {
      const response = await resolve("0x1234");
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("VALIDATION_FAILED");
    });
  });

  it("fills an order through a discount leg on-chain with the resolved signatures", async () => {
    const { core, accounts } = chain;
    const A4 = example.adapters.A4;
    // Room on A4 for the whole swap.
    await send(chain, accounts.deployer, {
      address: A4,
      abi: liquidLaneAdapterAbi,
      functionName: "setLimit",
      args: [core.tokens.rwa, 1_000n * 10n ** 6n],
    });
    await approveReactor(chain, accounts.swapper);
    await suite.subject.syncHead();
    const { discountId } = await publish();

    // I1 quotes its discount leg's output (1 unit below, as the reference solver does); the others decline.
    const discountLegOutput = (request: SolverQuoteRequest) => {
      const leg = request.adapters.find((candidate) => candidate.discountId === discountId)!;
      return (BigInt(request.amount) * BigInt(leg.maxRate) * 10n ** 6n) / (10n ** 18n * ONE_RWA) - 1n;
    };
    suite.solvers.I1.setBehaviour({
      kind: "quote",
      filler: example.executors.I1,
      amountOut: discountLegOutput,
    });

    const amountIn = 100n * ONE_RWA;
    const quote = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: {
        tokenInChainId: chain.chainId,
        tokenOutChainId: chain.chainId,
        tokenIn: core.tokens.rwa,
        tokenOut: core.tokens.usd,
        type: "EXACT_INPUT",
        amount: amountIn.toString(),
        swapper: accounts.swapper.address,
        outputs: [{ token: core.tokens.usd }],
      },
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const entry = quote.json().quotes[0];
    expect(entry.solver.id).toBe(SOLVER_IDS.I1);
    expect(entry.quote.aggregatedOutputs[0].amount).toBe((99_500_000n - 1n).toString());
    const signature = await signRequest(
      accounts.swapper,
      { chainId: chain.chainId, reactor: core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    const placed = await suite.subject.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    expect(placed.statusCode, placed.body).toBe(200);

    // The winning solver learns of its order and resolves the discount leg it quoted.
    const open = await suite.subject.app.inject({
      method: "GET",
      url: `/api/v1/orders?solverId=${SOLVER_IDS.I1}&orderStatus=open`,
    });
    const row = open
      .json()
      .orders.find((order: { orderId: string }) => order.orderId === placed.json().orderId);
    const order = decodeOrder(row.encodedOrder as Hex);
    expect(order.filler.toLowerCase()).toBe(example.executors.I1.toLowerCase());
    const resolved = ResolvedDiscountSchema.parse((await resolve(discountId)).json());

    const balanceOf = (address: Address) =>
      chain.publicClient.readContract({
        address: core.tokens.usd,
        abi: testERC20Abi,
        functionName: "balanceOf",
        args: [address],
      });
    const before = await balanceOf(accounts.swapper.address);
    const terms = resolved.discount;
    const hash = await chain.wallet(accounts.solver).writeContract({
      address: example.executors.I1,
      abi: executorAbi,
      functionName: "fill",
      args: [
        order,
        row.protocolSignature as Hex,
        [],
        [
          {
            ...discountSwapInputOf(resolved),
            recipient: example.executors.I1,
            amountIn: order.request.amountIn,
          },
        ],
        "0x",
      ],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");

    const committed = order.outputs.reduce((sum, output) => sum + output.amount, 0n);
    expect(committed).toBe(99_500_000n - 1n);
    expect((await balanceOf(accounts.swapper.address)) - before).toBe(committed);
    expect(
      await chain.publicClient.readContract({
        address: A4,
        abi: liquidLaneAdapterAbi,
        functionName: "isUsedNonce",
        args: [core.tokens.rwa, BigInt(terms.nonce)],
      }),
    ).toBe(true);

    // The discount's nonce is now used: it is no longer offered, and the worker drops it from the store.
    await suite.subject.syncHead();
    expect((await list()).json().discounts).toEqual([]);
    expect(await suite.subject.runtime.discounts.worker.sweep()).toEqual([discountId]);
  });
});

describe("the composition root serves liquidity, discounts and the internal API", () => {
  async function startSluice(env: Record<string, string> = {}, logger = silentLogger()) {
    const database = await createTestDatabase("pglite");
    const solver = await startScriptedSolver({ kind: "decline" });
    const solverConfigs = exampleSolvers(example, { I1: solver.url, I2: solver.url, E1: solver.url });
    try {
      const service = await buildSluice({
        env: readEnv({ PORT: "0", HOST: "127.0.0.1", INTERNAL_PORT: "0", SLUICE_DEMO_DATA: "0", ...env }),
        logger,
        clock: new ManualClock(Date.now()),
        database,
        closeDatabase: true,
        deployment: {
          deployment: exampleDeployment(chain, example, solverConfigs),
          rpcUrls: [chain.rpcUrl],
          protocolSigner: chain.accounts.protocol,
          solverSecrets: new Map(solverConfigs.map((s) => [s.id, `secret-${s.id}`])),
          blockPollIntervalMs: 20,
          indexer: false,
        },
      });
      return { service, solver };
    } catch (error) {
      await solver.close();
      await database.close();
      throw error;
    }
  }
  const post = (url: string, body: object) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("serves them over HTTP from a started Sluice, the internal API on its own listener only", async () => {
    const { service, solver } = await startSluice();
    await service.start();
    try {
      const internal = service.internalApiUrl;
      expect(internal).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api-internal\/v1$/);
      expect(new URL(internal).port).not.toBe(new URL(service.apiUrl).port);

      const { body } = await discountBody(chain, example.adapters.A4, example.curator, {
        deadline: Number(await chain.now()) + 3600,
      });
      const published = await post(`${service.apiUrl}/discount`, body);
      expect(published.status).toBe(200);
      const liquidity = await post(`${service.apiUrl}/liquidity`, { tokenIn: chain.core.tokens.rwa });
      expect(await liquidity.json()).toMatchObject({ totalLiquidity: "300" });
      const batch = await post(`${service.apiUrl}/liquidity-batch`, { tokensIn: [chain.core.tokens.rwa] });
      expect(batch.status).toBe(200);

      const listed = await fetch(`${internal}/discounts`, { headers: credentials(SOLVER_IDS.I1) });
      expect(listed.status).toBe(200);
      expect(LiveDiscountListSchema.parse(await listed.json()).discounts).toHaveLength(1);
      expect((await fetch(`${internal}/discounts`)).status).toBe(401);
      expect((await fetch(`${internal}/health`)).status).toBe(200);
      expect((await fetch(internal.replace(/\/api-internal\/v1$/, "/metrics"))).status).toBe(200);

      // Not on the public listener, under either prefix; and the public API is not on the internal one.
      const publicRoot = service.apiUrl.replace(/\/api\/v1$/, "");
      for (const url of [
        `${service.apiUrl}/discounts`,
        `${publicRoot}/api-internal/v1/discounts`,
        `${publicRoot}/api-internal/v1/health`,
        `${publicRoot}/metrics`,
      ]) {
        expect((await fetch(url, { headers: credentials(SOLVER_IDS.I1) })).status, url).toBe(404);
      }
      const internalRoot = internal.replace(/\/api-internal\/v1$/, "");
      expect((await fetch(`${internalRoot}/api/v1/health`)).status).toBe(404);
    } finally {
      await service.stop();
      await solver.close();
    }
  });

  it("in network mode asks no credentials, and logs the mode at start", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const { service, solver } = await startSluice({ INTERNAL_API_AUTH: "network" }, logger);
    await service.start();
    try {
      const { body } = await discountBody(chain, example.adapters.A4, example.curator, {
        deadline: Number(await chain.now()) + 3600,
      });
      const { discountId } = (await (await post(`${service.apiUrl}/discount`, body)).json()) as {
        discountId: string;
      };
      const listed = await fetch(`${service.internalApiUrl}/discounts`);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { discounts: unknown[] }).discounts).toHaveLength(1);
      // vault-solver's resolve: no credentials, the batch shape with one entry.
      const resolved = await post(`${service.internalApiUrl}/discounts`, { discountIds: [discountId] });
      expect(resolved.status).toBe(200);
      expect(ResolvedDiscountBatchSchema.parse(await resolved.json()).discounts[0]!.discountId).toBe(
        discountId,
      );
      const serving = lines.map((line) => JSON.parse(line)).find((entry) => entry.internalApiAuth);
      expect(serving).toMatchObject({ internalApiAuth: "network", internalApiUrl: service.internalApiUrl });
    } finally {
      await service.stop();
      await solver.close();
    }
  });

  it("refuses to start in network mode on a public address unless INTERNAL_API_ALLOW_PUBLIC=1", async () => {
    await expect(startSluice({ INTERNAL_API_AUTH: "network", INTERNAL_HOST: "0.0.0.0" })).rejects.toThrow(
      InternalListenerExposedError,
    );
    await expect(startSluice({ INTERNAL_API_AUTH: "network", INTERNAL_HOST: "8.8.8.8" })).rejects.toThrow(
      /INTERNAL_API_ALLOW_PUBLIC=1/,
    );
    // With solver secrets any address is allowed; with the operator's consent, too (built, not started).
    for (const env of <Array<Record<string, string>>>[
      { INTERNAL_HOST: "0.0.0.0" },
      { INTERNAL_API_AUTH: "network", INTERNAL_HOST: "0.0.0.0", INTERNAL_API_ALLOW_PUBLIC: "1" },
    ]) {
      const { service, solver } = await startSluice(env);
      await service.stop();
      await solver.close();
    }
  });

  it("knows loopback and private addresses", () => {
    for (const host of [
      "127.0.0.1",
      "localhost",
      "::1",
      "[::1]",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.1.1",
      "fd00::1",
      "fe80::1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "8.8.8.8",
      "172.32.0.1",
      "192.169.0.1",
      "example.com",
      "2001:db8::1",
    ]) {
      expect(isPrivateHost(host), host).toBe(false);
    }
  });
});

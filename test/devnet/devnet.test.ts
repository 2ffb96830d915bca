// The devnet as `npm start` runs it, in-process on a temporary data directory: the dev helpers fund wallets on the
// chain, a swap goes through the bundled solvers, the demo discount is published at start and offered to the
// internal solver, and a restart on the same directory keeps the chain, the deployment and the database (and
// replaces the demo discount with a fresh one).
import { existsSync, readFileSync, rmSync } from "node:fs";
import { type Address, createWalletClient, erc20Abi, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { freePort } from "../../src/app/listen-address.ts";
import { liquidLaneAdapterAbi } from "../../src/chain/abis.ts";
import { DEMO_DISCOUNT_PPM } from "../../src/demo/discount.ts";
import { devnetBanner, devnetFacts } from "../../src/devnet/banner.ts";
import { NATIVE_TOKEN } from "../../src/devnet/faucet.ts";
import {
  DevFaucetFundResponseSchema,
  DevFaucetResponseSchema,
  DevFundResponseSchema,
} from "../../src/devnet/schemas.ts";
import { OrdersResponseSchema } from "../../src/orders/schemas.ts";
import {
  CheckApprovalResponseSchema,
  OrderResponseSchema,
  QuoteResponseSchema,
} from "../../src/swap/schemas.ts";
import { type CapturedLogs, captureLogs } from "../reference-solver/support.ts";
import { requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { balancesOf, devnetClient, getJson, postJson, startTestDevnet, temporaryDataDir } from "./support.ts";

const ONE_RWA = 10n ** 18n;

describe("devnet", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice & { readyMs: number };
  let api: string;
  /** Funded by POST /dev/faucet before the restart, checked after it. */
  const fundedWallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Address;
  let bundle: Array<{ token: Address; amount: bigint }> = [];
  let orderId: string | undefined;

  /** The first run's log lines (what the bundled solvers were sent shows in them). */
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs();
    devnet = await startTestDevnet(dataDir.path, { logger: logs.logger });
    api = devnet.sluice.apiUrl;
    // Measured, not asserted (the machine's load decides it): the target is under 10 s.
    console.info(
      `devnet ready in ${devnet.readyMs} ms (fresh data directory; chain part ${devnet.chain.startupMs} ms)`,
    );
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("keeps its files in the data directory and serves a local deployment on chain 31337", async () => {
    const { files } = devnet.chain;
    for (const file of [files.anvilState, files.record, files.deployment]) {
      expect(file.startsWith(dataDir.path)).toBe(true);
    }
    expect(existsSync(files.record)).toBe(true);
    const written = JSON.parse(readFileSync(files.deployment, "utf8"));
    expect(written).toMatchObject({ local: true, chainId: 31337, reactor: devnet.chain.core.reactor });
    // A replica started on this file binds the devnet's own chain identity (the block that deployed the Reactor),
    // so it shares the devnet's database instead of resetting it as another chain's.
    const identityBlock = await devnetClient(devnet).getBlock({ blockNumber: BigInt(written.identityBlock) });
    expect(identityBlock.hash).toBe(JSON.parse(readFileSync(files.record, "utf8")).reactorBlockHash);
    expect(devnet.chain.deployedNow).toBe(true);
    expect(devnet.bundled.deployment.solvers.map((s) => [s.id, s.logo, s.internal])).toEqual([
      ["sluice_alpha", "sluice-alpha", true],
      ["sluice_beta", "sluice-beta", false],
    ]);
    expect(devnet.bundled.deployment.solvers.map((s) => s.filler)).toEqual(devnet.chain.core.executors);
    // INTERNAL_PORT unset: the internal listener took a free port of its own, written next to the API's for scripts
    // and solvers, with where Prometheus scrapes it; the banner names both.
    const endpoints = JSON.parse(readFileSync(files.endpoints, "utf8"));
    expect(endpoints).toMatchObject({
      apiUrl: devnet.sluice.apiUrl,
      internalApiUrl: devnet.sluice.internalApiUrl,
      metricsUrl: devnet.sluice.metricsUrl,
    });
    expect(new URL(endpoints.internalApiUrl).port).not.toBe(new URL(endpoints.apiUrl).port);
    expect(new URL(endpoints.metricsUrl).origin).toBe(new URL(endpoints.internalApiUrl).origin);
    const banner = devnetBanner(devnetFacts(devnet));
    expect(banner).toContain(`  Internal  ${endpoints.internalApiUrl}   (metrics: ${endpoints.metricsUrl})`);
    const metrics = await fetch(endpoints.metricsUrl);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain("sluice_http_requests_total");
    // On the public port /metrics says where the metrics are instead of a bare 404.
    const misplaced = await getJson(`${new URL(endpoints.apiUrl).origin}/metrics`);
    expect(misplaced.status).toBe(404);
    expect(misplaced.json).toMatchObject({
      error: {
        code: "NOT_FOUND",
        message: expect.stringContaining(`not on the public port: ${endpoints.metricsUrl}`),
        details: { metricsUrl: endpoints.metricsUrl },
      },
    });
  });

  it("GET /dev/faucet lists tRWA, tUSD and tUSDT (ERC-20s only, as the real document has it), with the request id", async () => {
    const response = await getJson(`${api}/dev/faucet`);
    expect(response.status).toBe(200);
    const body = DevFaucetResponseSchema.parse(response.json);
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
    expect(body.assets.map((a) => [a.symbol, a.kind, a.decimals])).toEqual([
      ["tRWA", "erc20", 18],
      ["tUSD", "erc20", 6],
      ["tUSDT", "erc20", 6],
    ]);
    const { tokens } = devnet.chain.core;
    expect(body.assets.map((a) => a.token)).toEqual([tokens.rwa, tokens.usd, tokens.usdt]);
    // A client typed from the real document (kind is "erc20" only) reads the answer.
    expect(response.json).toStrictEqual({ requestId: body.requestId, assets: body.assets });
    bundle = body.assets.map((a) => ({ token: a.token, amount: BigInt(a.amount) }));
    expect(bundle.every((asset) => asset.amount > 0n)).toBe(true);
  });

  it("POST /dev/faucet sends the whole bundle, and ETH for gas, to a new address: the balances are on the chain", async () => {
    const tokens = bundle.map((asset) => asset.token);
    expect(await balancesOf(devnet, fundedWallet, [NATIVE_TOKEN, ...tokens])).toEqual([
      0n,
      ...tokens.map(() => 0n),
    ]);
    const response = await postJson(`${api}/dev/faucet`, {
      walletAddress: fundedWallet.toUpperCase().replace("0X", "0x"),
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const body = DevFaucetFundResponseSchema.parse(response.json);
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
    expect(body.walletAddress).toBe(fundedWallet);
    expect(body.fundedAssets.map((a) => [a.token, BigInt(a.amount), a.kind])).toEqual(
      bundle.map((a) => [a.token, a.amount, "erc20"]),
    );
    expect(await balancesOf(devnet, fundedWallet, tokens)).toEqual(bundle.map((a) => a.amount));
    const [eth] = await balancesOf(devnet, fundedWallet, [NATIVE_TOKEN]);
    expect(eth).toBeGreaterThan(0n);
  });

  it("POST /dev/fund sends ETH and the input token", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const response = await postJson(`${api}/dev/fund`, { walletAddress: wallet });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const body = DevFundResponseSchema.parse(response.json);
    expect(body).toMatchObject({ walletAddress: wallet.toLowerCase(), token: devnet.chain.core.tokens.rwa });
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
    const [eth, rwa, usd] = await balancesOf(devnet, wallet, [
      NATIVE_TOKEN,
      devnet.chain.core.tokens.rwa,
      devnet.chain.core.tokens.usd,
    ]);
    expect(eth).toBe(BigInt(body.fundedEth));
    expect(rwa).toBe(BigInt(body.fundedToken));
    expect(usd).toBe(0n);
  });

  it("funds concurrent requests, each completely", async () => {
    const wallets = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()).address);
    const responses = await Promise.all(
      wallets.map((walletAddress) => postJson(`${api}/dev/faucet`, { walletAddress })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const wallet of wallets) {
      expect(
        await balancesOf(
          devnet,
          wallet,
          bundle.map((a) => a.token),
        ),
      ).toEqual(bundle.map((a) => a.amount));
    }
  });

  it.each([
    ["/dev/faucet", "0x1234"],
    ["/dev/fund", "0x0000000000000000000000000000000000000000"],
    ["/dev/fund", undefined],
  ])(
    "POST %s with walletAddress %s: 400 in the swap-flow validation envelope",
    async (path, walletAddress) => {
      const response = await postJson(`${api}${path}`, { walletAddress });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        error: { code: "VALIDATION_FAILED", status: 400, details: { issues: [{ path: "walletAddress" }] } },
      });
    },
  );

  it("runs a swap end to end: both bundled solvers quote, the order is filled on the chain", async () => {
    const { core } = devnet.chain;
    const swapper = devnet.chain.accounts.demo[0]!;
    const amount = 100n * ONE_RWA;
    const quote = await postJson(`${api}/quote`, {
      tokenInChainId: 31337,
      tokenOutChainId: 31337,
      tokenIn: core.tokens.rwa,
      tokenOut: core.tokens.usd,
      type: "EXACT_INPUT",
      amount: amount.toString(),
      swapper: swapper.account.address,
      outputs: [{ token: core.tokens.usd }],
    });
    expect(quote.status, JSON.stringify(quote.json)).toBe(200);
    const quotes = QuoteResponseSchema.parse(quote.json).quotes;
    // Margins 10 and 30 bps: alpha's quote is the better one.
    expect(quotes.map((entry) => entry.solver.id)).toEqual(["sluice_alpha", "sluice_beta"]);
    const best = quotes[0]!;

    const approval = await postJson(`${api}/check_approval`, {
      walletAddress: swapper.account.address,
      chainId: 31337,
      token: core.tokens.rwa,
      amount: amount.toString(),
    });
    expect(approval.status).toBe(200);
    const { approval: approveTx } = CheckApprovalResponseSchema.parse(approval.json);
    const wallet = createWalletClient({ account: swapper.account, transport: http(devnet.chain.rpcUrl) });
    const client = devnetClient(devnet);
    if (approveTx) {
      const hash = await wallet.sendTransaction({
        chain: null,
        to: approveTx.to,
        data: approveTx.data as Hex,
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    }

    const request = requestFromSignatureData(best.signatureData.value);
    const signature = await signRequest(swapper.account, { chainId: 31337, reactor: core.reactor }, request);
    const before = await client.readContract({
      address: core.tokens.usd,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [swapper.account.address],
    });
    const order = await postJson(`${api}/order`, { quote: best.quote, signature });
    expect(order.status, JSON.stringify(order.json)).toBe(200);
    orderId = OrderResponseSchema.parse(order.json).orderId;

    // The winning solver polls GET /orders, fills through its Executor; the indexer sees the Fill.
    let status = "open";
    for (let attempt = 0; attempt < 120 && status === "open"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const orders = OrdersResponseSchema.parse(
        (await getJson(`${api}/orders?orderId=${orderId}`)).json,
      ).orders;
      status = orders[0]?.orderStatus ?? "missing";
    }
    expect(status).toBe("filled");
    const after = await client.readContract({
      address: core.tokens.usd,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [swapper.account.address],
    });
    expect(after - before).toBeGreaterThanOrEqual(BigInt(best.quote.aggregatedOutputs[0]!.amount));
    // The wait for the fill is bounded above (60 s); the test's own limit must not cut it short.
  }, 120_000);

  /** `GET /api-internal/v1/discounts` on the internal listener (from endpoints.json), as a bundled solver. */
  const internalDiscounts = (solverId: string) =>
    fetch(`${JSON.parse(readFileSync(devnet.chain.files.endpoints, "utf8")).internalApiUrl}/discounts`, {
      headers: {
        "x-solver-id": solverId,
        "x-rfq-shared-secret": devnet.bundled.solverSecrets.get(solverId)!,
      },
    });

  it("publishes the demo curator's discount at start and offers it to the internal solver only", async () => {
    const { core, accounts, protocolSigner } = devnet.chain;
    const client = devnetClient(devnet);
    const demo = devnet.demoDiscount!;
    expect(demo).toMatchObject({
      adapter: core.adapters.usd,
      discount: {
        tokenToRedeem: core.tokens.rwa,
        discount: DEMO_DISCOUNT_PPM,
        signer: accounts.curator.account.address,
        protocol: protocolSigner.address,
      },
    });
    const now = (await client.getBlock({ blockTag: "latest" })).timestamp;
    expect(BigInt(demo.discount.deadline)).toBeGreaterThan(now);
    expect(BigInt(demo.discount.deadline)).toBeLessThanOrEqual(now + 86_400n);
    // The curator is a key of its own, authorized on the tUSD adapter through the market maker's filler list.
    const roles = [
      accounts.deployer,
      accounts.protocol,
      accounts.marketMaker,
      ...accounts.solvers,
      ...accounts.demo,
    ];
    expect(roles.map((role) => role.account.address)).not.toContain(accounts.curator.account.address);
    expect(
      await client.readContract({
        address: core.adapters.usd,
        abi: liquidLaneAdapterAbi,
        functionName: "isFiller",
        args: [accounts.marketMaker.account.address, accounts.curator.account.address],
      }),
    ).toBe(true);

    // The internal API lists it for alpha (internal) and refuses beta (external).
    const listed = await internalDiscounts("sluice_alpha");
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { discounts: Array<{ discountId: string }> }).discounts).toEqual([
      expect.objectContaining({ discountId: demo.discountId, discount: DEMO_DISCOUNT_PPM.toString() }),
    ]);
    expect((await internalDiscounts("sluice_beta")).status).toBe(403);

    // Liquidity: alpha is offered the tUSD adapter's direct and discount legs — one adapter, its capacity once, the
    // same as external beta's direct leg there; the total is the internal pool plus beta. (One answer, one block.)
    const liquidity = await postJson(`${api}/liquidity`, { tokenIn: core.tokens.rwa });
    expect(liquidity.status).toBe(200);
    const { totalLiquidity, solvers } = liquidity.json as {
      totalLiquidity: string;
      solvers: Array<{ solverId: string; liquidity: string }>;
    };
    const capacity = BigInt(solvers.find((solver) => solver.solverId === "sluice_alpha")!.liquidity);
    expect(capacity).toBeGreaterThan(0n);
    expect(solvers).toEqual([
      { solverId: "sluice_alpha", liquidity: capacity.toString() },
      { solverId: "sluice_beta", liquidity: capacity.toString() },
    ]);
    expect(BigInt(totalLiquidity)).toBe(2n * capacity);

    // A quote: alpha's request carries the discount leg, beta's does not.
    const quote = await postJson(`${api}/quote`, {
      tokenInChainId: 31337,
      tokenOutChainId: 31337,
      tokenIn: core.tokens.rwa,
      tokenOut: core.tokens.usd,
      type: "EXACT_INPUT",
      amount: (10n * ONE_RWA).toString(),
      swapper: accounts.demo[1]!.account.address,
      outputs: [{ token: core.tokens.usd }],
    });
    expect(quote.status, JSON.stringify(quote.json)).toBe(200);
    await logs.waitFor(
      (e) => e.msg === "quote request" && e.solver === "sluice_alpha" && e.discountLegs === 1,
      {
        what: "alpha's quote request with the discount leg",
      },
    );
    const betaRequests = logs.entries.filter((e) => e.msg === "quote request" && e.solver === "sluice_beta");
    expect(betaRequests.length).toBeGreaterThan(0);
    expect(betaRequests.every((e) => e.discountLegs === 0)).toBe(true);
  });

  it("starts and stops its parts in the one order docs/architecture.md, the root's header and the README give", () => {
    const names = devnet.sluice.steps.map((step) => step.name);
    const docs = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
    const block = docs.split("<!-- start-order -->")[1]!.split("<!-- /start-order -->")[0]!;
    const documented = [...block.matchAll(/^\d+\. (.+?) \u2014 /gm)].map((match) => match[1]);
    expect(documented).toEqual(names);
    const header = readFileSync(new URL("../../src/app/sluice.ts", import.meta.url), "utf8");
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const arrowList = names.join(" \u2192 ");
    expect(header.replace(/\n\/\/ /g, " ")).toContain(arrowList);
    expect(readme.replace(/\n\s*/g, " ")).toContain(arrowList);
  });

  it("a restart on the same data directory keeps the chain, the deployment and the database", async () => {
    const { core, genesisHash } = devnet.chain;
    const blockBefore = await devnetClient(devnet).getBlockNumber();
    await devnet.sluice.stop();

    const demoBefore = devnet.demoDiscount!;
    // An explicit INTERNAL_PORT is honoured (a free port is taken only when it is unset).
    const internalPort = await freePort("127.0.0.1");
    devnet = await startTestDevnet(dataDir.path, { env: { INTERNAL_PORT: String(internalPort) } });
    api = devnet.sluice.apiUrl;
    expect(new URL(devnet.sluice.internalApiUrl).port).toBe(String(internalPort));
    expect(JSON.parse(readFileSync(devnet.chain.files.endpoints, "utf8")).metricsUrl).toBe(
      `http://127.0.0.1:${internalPort}/metrics`,
    );
    console.info(`devnet restarted in ${devnet.readyMs} ms (kept data directory)`);
    // A fresh demo discount replaces the previous run's: the one listed is the one the banner shows.
    expect(devnet.demoDiscount?.discountId).toBeDefined();
    expect(devnet.demoDiscount!.discountId).not.toBe(demoBefore.discountId);
    expect(devnet.demoDiscount!.discount.deadline).toBeGreaterThanOrEqual(demoBefore.discount.deadline);
    const listed = (await (await internalDiscounts("sluice_alpha")).json()) as {
      discounts: Array<{ discountId: string }>;
    };
    expect(listed.discounts.map((discount) => discount.discountId)).toEqual([
      devnet.demoDiscount!.discountId,
    ]);
    expect(devnet.chain.deployedNow).toBe(false);
    expect(devnet.chain.genesisHash).toBe(genesisHash);
    expect(devnet.chain.core).toEqual(core);
    expect(await devnetClient(devnet).getBlockNumber()).toBeGreaterThanOrEqual(blockBefore);
    expect(
      await balancesOf(
        devnet,
        fundedWallet,
        bundle.map((a) => a.token),
      ),
    ).toEqual(bundle.map((a) => a.amount));

    expect(orderId).toBeDefined();
    const orders = OrdersResponseSchema.parse(
      (await getJson(`${api}/orders?orderId=${orderId}`)).json,
    ).orders;
    expect(orders.map((o) => [o.orderId, o.orderStatus])).toEqual([[orderId, "filled"]]);

    // The faucet still works on the kept chain (the deployer's nonce comes from the chain, not from memory).
    const again = await postJson(`${api}/dev/faucet`, { walletAddress: fundedWallet });
    expect(again.status).toBe(200);
    expect(
      await balancesOf(
        devnet,
        fundedWallet,
        bundle.map((a) => a.token),
      ),
    ).toEqual(bundle.map((a) => a.amount * 2n));
  });

  it("a lost chain is deployed again, and the swap state of the old chain is not mixed in", async () => {
    const { genesisHash, files } = devnet.chain;
    await devnet.sluice.stop();
    rmSync(files.anvilState);

    devnet = await startTestDevnet(dataDir.path);
    api = devnet.sluice.apiUrl;
    expect(devnet.chain.deployedNow).toBe(true);
    expect(devnet.chain.genesisHash).not.toBe(genesisHash);
    expect(JSON.parse(readFileSync(files.record, "utf8")).genesisHash).toBe(devnet.chain.genesisHash);
    const code = await devnetClient(devnet).getCode({ address: devnet.chain.core.reactor });
    expect(code?.length).toBeGreaterThan(2);
    // The funds of the old chain are gone with it, and so is its order (DESIGN §8: reset, never mixed).
    expect(await balancesOf(devnet, fundedWallet, [devnet.chain.core.tokens.rwa])).toEqual([0n]);
    const orders = OrdersResponseSchema.parse(
      (await getJson(`${api}/orders?orderId=${orderId}`)).json,
    ).orders;
    expect(orders).toEqual([]);
  });
});

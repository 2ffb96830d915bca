// @sluice/client against a fresh devnet: its generated types match the document the server serves, a whole swap
// goes through it with a viem wallet client as the signer and waitForOrder on the order stream (polling when the
// stream route answers 404), and its errors carry both envelopes. test/client/package.test.ts installs the packed
// package into a project of its own.
import { readFileSync } from "node:fs";
import {
  createSluiceClient,
  type OrderStreamEvent,
  type OrderStreamUnavailableError,
  OrderWaitTimeoutError,
  SluiceApiError,
  type SluiceClient,
} from "@sluice/client";
import { type Address, createWalletClient, defineChain, erc20Abi, type Hex, http, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransport } from "../../packages/client/src/transport.ts";
import { CLIENT_TYPES_FILE, renderClientTypes } from "../../scripts/client-types.ts";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { devnetClient, startTestDevnet, temporaryDataDir } from "../devnet/support.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("@sluice/client on a fresh devnet", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;
  let sluice: SluiceClient;
  beforeAll(async () => {
    devnet = await startTestDevnet(dataDir.path);
    sluice = createSluiceClient({ apiUrl: devnet.apiUrl });
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("has the wire types of the document the running server serves (npm run client:types regenerates them)", async () => {
    const document = await (await fetch(`${devnet.apiUrl}/openapi.json`)).json();
    const committed = readFileSync(CLIENT_TYPES_FILE, "utf8");
    const current = await renderClientTypes(document);
    expect(
      current === committed,
      "packages/client/src/openapi.gen.ts differs from the server's document: run `npm run client:types` and commit it",
    ).toBe(true);
  });

  /** Funds a throwaway wallet, quotes, approves and submits the best entry through `client`, as a wallet does. */
  async function submitSwap(client: SluiceClient) {
    const rpcUrl = devnet.chain.rpcUrl;
    const chainId = devnet.chain.chainId;
    const chain = defineChain({
      id: chainId,
      name: "devnet",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const wallet = createWalletClient({
      account: privateKeyToAccount(generatePrivateKey()),
      chain,
      transport: http(rpcUrl),
    });
    const swapper = wallet.account.address;
    const funded = await client.dev.fund(swapper);
    const tokenIn = funded.token as Address;
    const tokenOut = devnet.chain.core.tokens.usd;
    const amount = parseUnits("50", 18);

    const quoted = await client.quote({
      tokenInChainId: chainId,
      tokenOutChainId: chainId,
      tokenIn,
      tokenOut,
      amount,
      swapper,
      outputs: [{ token: tokenOut }],
    });
    expect(quoted.quotes.map((entry) => entry.solver.id).sort()).toEqual(["sluice_alpha", "sluice_beta"]);
    const approval = await client.checkApproval({ walletAddress: swapper, chainId, token: tokenIn, amount });
    expect(approval.cancel).toBeNull();
    const approvalTx = approval.approval!;
    const hash = await wallet.sendTransaction({ to: approvalTx.to as Address, data: approvalTx.data as Hex });
    await devnetClient(devnet).waitForTransactionReceipt({ hash, pollingInterval: 100 });

    const submitted = await client.submitOrder(quoted.quotes[0]!, wallet);
    expect(submitted).toMatchObject({ orderStatus: "open", orderId: expect.stringMatching(UUID) });
    return { submitted, swapper, tokenOut };
  }

  /** A fetch that records each request's path and query (and Last-Event-ID), then asks `answer` or the server. */
  function recordingFetch(answer?: (url: URL) => Response | undefined) {
    const requests: string[] = [];
    const fetcher: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      requests.push(`${init?.method ?? "GET"} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`);
      return answer?.(url) ?? fetch(input, init);
    };
    return { requests, fetcher };
  }

  it("swaps through quote, checkApproval, submitOrder (a viem wallet client signs) and waitForOrder on the stream", async () => {
    const recorded = recordingFetch();
    const client = createSluiceClient({ apiUrl: devnet.apiUrl, fetch: recorded.fetcher });
    const { submitted, swapper, tokenOut } = await submitSwap(client);
    const events: OrderStreamEvent[] = [];
    const updates: string[] = [];
    const polls: unknown[] = [];
    const order = await client.waitForOrder(submitted.orderId, {
      intervalMs: 250,
      timeoutMs: 30_000,
      onEvent: (event) => events.push(event),
      onUpdate: (seen) => updates.push(seen.orderStatus),
      onPoll: (seen) => polls.push(seen),
    });
    // Followed on the stream from open to filled, never polled.
    const waited = recorded.requests.slice(recorded.requests.indexOf("POST /order") + 1);
    expect(waited).toEqual([`GET /orders/stream?orderId=${submitted.orderId}`]);
    expect(polls).toEqual([]);
    expect(events[0]).toMatchObject({ type: "snapshot", order: { orderStatus: "open" } });
    expect(events.at(-1)).toMatchObject({ type: "order", order: { orderStatus: "filled" } });
    expect(events.every((event) => event.type !== "resync" && /^\d+$/.test(event.id))).toBe(true);
    expect(updates[0]).toBe("open");
    expect(updates.at(-1)).toBe("filled");
    expect(order.orderStatus).toBe("filled");
    const receipt = await devnetClient(devnet).getTransactionReceipt({ hash: order.txHash as Hex });
    expect(receipt.status).toBe("success");
    expect(order.settledAmounts).toEqual(
      order.outputs.map((output) => ({ ...output, txHash: order.txHash })),
    );
    const received = await devnetClient(devnet).readContract({
      address: tokenOut,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [swapper],
    });
    expect(received).toBe(BigInt(order.outputs[0]!.amount));

    // List filters go out comma-separated, as Sluice reads them.
    const listed = await client.orders({
      orderIds: [submitted.orderId, "00000000-0000-4000-8000-000000000000"],
    });
    expect(listed.orders.map((found) => found.orderId)).toEqual([submitted.orderId]);
  });

  it("falls back to polling when the stream route answers 404 (an older server), and still sees the fill", async () => {
    const recorded = recordingFetch((url) =>
      url.pathname.endsWith("/orders/stream")
        ? Response.json({ message: "Route GET:/api/v1/orders/stream not found" }, { status: 404 })
        : undefined,
    );
    const client = createSluiceClient({ apiUrl: devnet.apiUrl, fetch: recorded.fetcher });
    const { submitted } = await submitSwap(client);
    const fallbacks: OrderStreamUnavailableError[] = [];
    const polls: Array<string | undefined> = [];
    const order = await client.waitForOrder(submitted.orderId, {
      intervalMs: 250,
      timeoutMs: 30_000,
      onFallback: (reason) => fallbacks.push(reason),
      onPoll: (seen) => polls.push(seen?.orderStatus),
    });
    expect(order).toMatchObject({ orderId: submitted.orderId, orderStatus: "filled" });
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]!.cause).toMatchObject({ status: 404, code: "HTTP_404" });
    const waited = recorded.requests.slice(recorded.requests.indexOf("POST /order") + 1);
    // One try of the stream (a 404 is not retried), then GET /orders until the fill.
    expect(waited[0]).toBe(`GET /orders/stream?orderId=${submitted.orderId}`);
    expect(waited.slice(1).every((line) => line === `GET /orders?orderId=${submitted.orderId}`)).toBe(true);
    expect(waited.length).toBeGreaterThan(1);
    expect(polls.at(-1)).toBe("filled");
  });

  it("throws SluiceApiError with the swap envelope's code, status, details and the X-Request-Id", async () => {
    const error = await sluice
      .quote({
        tokenInChainId: devnet.chain.chainId,
        tokenOutChainId: devnet.chain.chainId,
        tokenIn: devnet.chain.core.tokens.rwa,
        tokenOut: devnet.chain.core.tokens.usd,
        amount: "not a number",
        swapper: devnet.chain.core.tokens.rwa,
        outputs: [{ token: devnet.chain.core.tokens.usd }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SluiceApiError);
    const apiError = error as SluiceApiError;
    expect(apiError).toMatchObject({ status: 400, code: "VALIDATION_FAILED", envelope: "swap" });
    expect(apiError.requestId).toMatch(UUID);
    expect(apiError.details?.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "amount" })]),
    );
  });

  it("reads the partner envelope and bodies that are neither envelope into the same error", async () => {
    const partner = await createTransport({ apiUrl: devnet.apiUrl })
      .get("/entities/nothing-here")
      .catch((caught: unknown) => caught);
    expect(partner).toMatchObject({ status: 404, code: "pageNotFound", envelope: "partner" });
    expect((partner as SluiceApiError).requestId).toMatch(UUID);

    // A proxy in front answering with its own page: the client is given that fetch.
    const behindProxy = createSluiceClient({
      apiUrl: devnet.apiUrl,
      fetch: async () => new Response("<html>Bad gateway</html>", { status: 502 }),
    });
    const proxied = await behindProxy.orders({ swapper: devnet.chain.core.tokens.rwa }).catch((e) => e);
    expect(proxied).toMatchObject({
      status: 502,
      code: "HTTP_502",
      envelope: "unknown",
      requestId: null,
      body: "<html>Bad gateway</html>",
    });
  });

  it("gives up waiting with OrderWaitTimeoutError after timeoutMs", async () => {
    const unknownOrder = "00000000-0000-4000-8000-000000000000";
    const error = await sluice
      .waitForOrder(unknownOrder, { intervalMs: 50, timeoutMs: 300 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OrderWaitTimeoutError);
    expect(error).toMatchObject({ orderId: unknownOrder, lastStatus: null });
  });

  it("stops waiting when its signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const waiting = sluice.waitForOrder("00000000-0000-4000-8000-000000000000", {
      intervalMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("the wallet closed")), 100);
    await expect(waiting).rejects.toThrow("the wallet closed");
  });
});

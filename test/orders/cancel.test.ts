// POST /cancel on the devnet: the answered transaction, sent by the swapper, makes the order `cancelled` (through the
// indexer, as any InvalidateNonce); sent from another account it invalidates that account's nonce only, and the
// order still fills. An order waiting for funds is cancelled the same way. 404 for an unknown order; 409 for one
// that is no longer open, and for one whose deadline has passed by chain time (before the indexer expired it). And
// the same through @sluice/client, sent with a viem wallet client.
import { randomUUID } from "node:crypto";
import { createSluiceClient, SluiceApiError, sendTransactionRequest } from "@sluice/client";
import { createWalletClient, decodeFunctionData, defineChain, type Hex, http, type LocalAccount } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { reactorAbi } from "../../src/chain/abis.ts";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { CancelResponseSchema } from "../../src/orders/schemas.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  changeOrderStatus,
  fillOrder,
  indexUntilCaughtUp,
  placeOrder,
  useQuotingSwapApp,
} from "../support/orders.ts";

const chain = useTestChain();

describe.each(databaseKinds)("POST /cancel (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock, { streams: true });
  let indexer: ReactorIndexer;
  let apiUrl: string;

  beforeAll(async () => {
    await approveReactor(chain, chain.accounts.swapper);
    indexer = new ReactorIndexer({
      orderObserver: new OrderStats(),
      database: swap.database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock: (await chain.publicClient.getBlockNumber()) + 1n,
      orderEvents: swap.sluice.parts.orderEvents,
      clock,
      logger: silentLogger(),
    });
    apiUrl = swap.streamUrl.replace(/\/orders\/stream$/, "");
  });

  async function place() {
    clock.set(Number(await chain.now()) * 1000);
    return placeOrder(chain, swap.app, swap.database);
  }

  async function cancel(orderId: string) {
    return swap.app.inject({ method: "POST", url: "/api/v1/cancel", payload: { orderId } });
  }

  async function status(orderId: string): Promise<string> {
    const response = await swap.app.inject({ url: `/api/v1/orders?orderId=${orderId}` });
    return response.json().orders[0].orderStatus;
  }

  async function send(
    from: LocalAccount,
    transaction: { to: string; data: string; value: string },
  ): Promise<void> {
    const hash = await chain.wallet(from).sendTransaction({
      to: transaction.to as Hex,
      data: transaction.data as Hex,
      value: BigInt(transaction.value),
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
  }

  it("answers the swapper's invalidateNonce transaction; sent by the swapper it cancels the order", async () => {
    const row = await place();
    const response = await cancel(row.orderId);
    expect(response.statusCode, response.body).toBe(200);
    const body = CancelResponseSchema.parse(response.json());
    expect(body).toEqual({
      requestId: response.headers["x-request-id"],
      orderId: row.orderId,
      swapper: chain.accounts.swapper.address.toLowerCase(),
      transaction: { to: chain.core.reactor.toLowerCase(), data: body.transaction.data, value: "0" },
    });
    expect(decodeFunctionData({ abi: reactorAbi, data: body.transaction.data as Hex })).toEqual({
      functionName: "invalidateNonce",
      args: [BigInt(row.nonce)],
    });

    await send(chain.accounts.swapper, body.transaction);
    await indexUntilCaughtUp(indexer);
    expect(await status(row.orderId)).toBe("cancelled");
    // A fill of it can no longer pass, and there is nothing left to cancel.
    await expect(fillOrder(chain, row)).rejects.toThrow();
    const again = await cancel(row.orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: {
        code: "ORDER_NOT_OPEN",
        details: { orderId: row.orderId, reason: "status", orderStatus: "cancelled" },
      },
    });
  });

  it("sent from another account it changes nothing: the order stays open and still fills", async () => {
    const row = await place();
    const body = CancelResponseSchema.parse((await cancel(row.orderId)).json());
    await send(chain.accounts.other, body.transaction);
    await indexUntilCaughtUp(indexer);
    expect(await status(row.orderId)).toBe("open");
    await fillOrder(chain, row);
    await indexUntilCaughtUp(indexer);
    expect(await status(row.orderId)).toBe("filled");
    const late = await cancel(row.orderId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: { code: "ORDER_NOT_OPEN", details: { orderStatus: "filled" } },
    });
  });

  it("cancels an order waiting for funds too", async () => {
    const row = await place();
    await changeOrderStatus(swap.database, swap.sluice.parts.orderEvents, {
      orderId: row.orderId,
      from: "open",
      to: "insufficient-funds",
      reason: "test: the swapper's balance was short",
      at: clock.now(),
    });
    const response = await cancel(row.orderId);
    expect(response.statusCode, response.body).toBe(200);
    await send(chain.accounts.swapper, CancelResponseSchema.parse(response.json()).transaction);
    await indexUntilCaughtUp(indexer);
    expect(await status(row.orderId)).toBe("cancelled");
  });

  it("through @sluice/client: cancelOrder, sent with sendTransactionRequest and a viem wallet client; typed errors", async () => {
    const row = await place();
    const sluice = createSluiceClient({ apiUrl });
    const answer = await sluice.cancelOrder(row.orderId);
    expect(answer).toMatchObject({
      orderId: row.orderId,
      swapper: chain.accounts.swapper.address.toLowerCase(),
    });
    const wallet = createWalletClient({
      account: chain.accounts.swapper,
      chain: defineChain({
        id: chain.chainId,
        name: "anvil",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      }),
      transport: http(chain.rpcUrl),
    });
    const hash = await sendTransactionRequest(wallet, answer.transaction);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    await indexUntilCaughtUp(indexer);
    const settled = await sluice.waitForOrder(row.orderId, { timeoutMs: 10_000 });
    expect(settled.orderStatus).toBe("cancelled");

    const refused = await sluice.cancelOrder(row.orderId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SluiceApiError);
    expect(refused).toMatchObject({
      status: 409,
      code: "ORDER_NOT_OPEN",
      details: { orderStatus: "cancelled" },
    });
    const unknown = await sluice.cancelOrder(randomUUID()).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 404, code: "ORDER_NOT_FOUND" });
  });

  // Last: it moves chain time past every quote's deadline.
  it("answers 404 for an unknown order and 409 once the deadline has passed by chain time", async () => {
    const unknown = randomUUID();
    const missing = await cancel(unknown);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      error: { code: "ORDER_NOT_FOUND", details: { orderId: unknown } },
    });

    const row = await place();
    // Chain time passes the deadline; the indexer has not looked yet, so the row still says open.
    await chain.increaseTime(row.deadline - Number(await chain.now()) + 1);
    // The server's chain head is refreshed on demand once it is two polls (40 ms here) old.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await status(row.orderId)).toBe("open");
    const late = await cancel(row.orderId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: {
        code: "ORDER_NOT_OPEN",
        details: { orderId: row.orderId, reason: "deadline_passed", deadline: row.deadline },
      },
    });
    expect(late.json().error.details.chainTime).toBeGreaterThan(row.deadline);
  });
});

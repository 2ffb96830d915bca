// Price improvement on the devnet: a scripted solver quotes 98 % in the /quote round and 98.5 % in the hard round,
// with a 25 bps fee output beside the swapper's. The order shows both rounds' request ids, the quoted and committed
// totals and the improvement (exact amount and floored bps); after the fill, the recipients' tUSD balances grew by
// exactly `settledAmountOut`, and the order stream's fill event carries the same fields as GET /orders.
import { describe, expect, it } from "vitest";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderRecordSchema } from "../../src/orders/schemas.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  indexUntilCaughtUp,
  quoteRequestBody,
  quotingBehaviour,
  requestFromSignatureData,
  tokenBalance,
  useQuotingSwapApp,
} from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { openSse } from "../support/sse.ts";

const chain = useTestChain();
const RWA = 10n ** 18n;

describe.each(databaseKinds)("price improvement on the devnet (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock, { streams: true });

  it("shows the hard round's improvement over the quote, and the fill delivers settledAmountOut", async () => {
    clock.set(Number(await chain.now()) * 1000);
    const swapper = chain.accounts.swapper;
    const fee = chain.accounts.feeRecipient.address.toLowerCase() as `0x${string}`;
    const usd = chain.core.tokens.usd.toLowerCase() as `0x${string}`;
    await approveReactor(chain, swapper);
    const indexer = new ReactorIndexer({
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

    // The /quote round: 98 tUSD for 100 tRWA, a 25 bps fee to the fee recipient.
    swap.solver.setBehaviour(quotingBehaviour(chain.core.executors[0]!));
    const quoted = await swap.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: {
        ...quoteRequestBody(chain, { amount: 100n * RWA, swapper: swapper.address }),
        outputs: [{ token: usd }, { token: usd, recipient: fee, portionBps: 25 }],
      },
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const entry = quoted.json().quotes[0];
    expect(entry.quote.aggregatedOutputs).toEqual([{ token: usd, amount: "98000000" }]);
    const signature = await signRequest(
      swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );

    // The hard round: the same solver now bids 98.5 tUSD.
    swap.solver.setBehaviour({
      kind: "quote",
      filler: chain.core.executors[0]!,
      amountOut: (request) => (BigInt(request.amount) * 985n) / 1000n / 10n ** 12n,
    });
    const placed = await swap.app.inject({
      method: "POST",
      url: "/api/v1/order",
      payload: { quote: entry.quote, signature },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().orderId as string;

    const read = async () => {
      const response = await swap.app.inject({ url: `/api/v1/orders?orderId=${orderId}` });
      expect(response.statusCode, response.body).toBe(200);
      return OrderRecordSchema.strict().parse(response.json().orders[0]);
    };
    const open = await read();
    // 98,500,000 − 98,000,000 = 500,000 (51.02 bps, floored); the fee output keeps its signed 245,000.
    expect(open).toMatchObject({
      orderStatus: "open",
      quoteRequestId: quoted.json().requestId,
      orderRequestId: placed.json().requestId,
      quotedAmountOut: "98000000",
      committedAmountOut: "98500000",
      settledAmountOut: null,
      priceImprovement: { amount: "500000", bps: 51 },
    });
    expect(open.outputs).toEqual([
      { token: usd, recipient: swapper.address.toLowerCase(), amount: "98255000" },
      { token: usd, recipient: fee, amount: "245000" },
    ]);

    const stream = await openSse(`${swap.streamUrl}?orderId=${orderId}`);
    try {
      await stream.until((events) => events.some((e) => e.event === "snapshot"));
      const before = await Promise.all([
        tokenBalance(chain, usd, swapper.address),
        tokenBalance(chain, usd, fee),
      ]);
      const row = await new OrderRepository(swap.database, new OrderEvents(), new OrderStats()).findById(
        orderId,
      );
      await fillOrder(chain, row!);
      await indexUntilCaughtUp(indexer);
      const after = await Promise.all([
        tokenBalance(chain, usd, swapper.address),
        tokenBalance(chain, usd, fee),
      ]);

      const filled = await read();
      expect(filled).toMatchObject({
        orderStatus: "filled",
        settledAmountOut: "98500000",
        priceImprovement: { amount: "500000", bps: 51 },
      });
      const received = after[0]! - before[0]! + (after[1]! - before[1]!);
      expect(received.toString()).toBe(filled.settledAmountOut);
      expect(after[0]! - before[0]!).toBe(98_255_000n);

      // The stream's fill event: the same record as GET /orders gives now.
      const events = await stream.until((all) => all.some((e) => e.event === "order"));
      const event = OrderRecordSchema.strict().parse(
        JSON.parse(events.find((e) => e.event === "order")!.data),
      );
      expect(event).toEqual(filled);
    } finally {
      stream.close();
    }
  });
});

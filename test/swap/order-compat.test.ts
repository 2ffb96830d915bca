// POST /quote and /order as clients typed from the real backend's document use them (issue 12), each order filled on
// anvil with every output paid: its order request has no `portionBps`, so a fee quote re-sent without it is the
// same quote (absent means unchanged; present must match); and it allows up to 50 outputs, so a 50-output order
// must fill within a block's gas, not only validate.
import type { Address } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { MAX_QUOTE_OUTPUTS, QuoteResponseSchema } from "../../src/swap/schemas.ts";
import { addressFromSeed, useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import {
  approveReactor,
  fillOrder,
  requestFromSignatureData,
  tokenBalance,
  useQuotingSwapApp,
} from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";

const chain = useTestChain();

describe("POST /quote and /order as the real document's clients use them", () => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp("pglite", chain, clock);

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
  });

  /** POST /quote with `outputs` (tRWA → tUSD). */
  const postQuote = (outputs: Array<{ recipient?: Address; portionBps?: number }>) =>
    swap.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: {
        tokenInChainId: chain.chainId,
        tokenOutChainId: chain.chainId,
        tokenIn: chain.core.tokens.rwa,
        tokenOut: chain.core.tokens.usd,
        type: "EXACT_INPUT",
        amount: (100n * 10n ** 18n).toString(),
        swapper: chain.accounts.swapper.address,
        outputs: outputs.map((output) => ({ token: chain.core.tokens.usd, ...output })),
      },
    });

  /** POST /quote with `outputs`, and the swapper's signature of the best entry. */
  async function signedFeeQuote(outputs: Array<{ recipient?: Address; portionBps?: number }>) {
    const response = await postQuote(outputs);
    expect(response.statusCode, response.body).toBe(200);
    const entry = QuoteResponseSchema.parse(response.json()).quotes[0]!;
    const signature = await signRequest(
      chain.accounts.swapper,
      { chainId: chain.chainId, reactor: chain.core.reactor },
      requestFromSignatureData(entry.signatureData.value),
    );
    return { quote: entry.quote, signature };
  }

  const postOrder = (payload: object) => swap.app.inject({ method: "POST", url: "/api/v1/order", payload });

  /** Fills the stored order on anvil; every recipient gets its committed amount. */
  async function expectFills(orderId: string) {
    const row = await new OrderRepository(swap.database, swap.orderEvents, new OrderStats()).findById(
      orderId,
    );
    expect(row).toBeDefined();
    const usd = chain.core.tokens.usd;
    const before = await Promise.all(
      row!.outputs.map((o) => tokenBalance(chain, usd, o.recipient as Address)),
    );
    const hash = await fillOrder(chain, row!);
    const after = await Promise.all(
      row!.outputs.map((o) => tokenBalance(chain, usd, o.recipient as Address)),
    );
    // Recipients may repeat: compare the sums each one got.
    const expected = new Map<string, bigint>();
    const got = new Map<string, bigint>();
    row!.outputs.forEach((output, index) => {
      const key = output.recipient.toLowerCase();
      expected.set(key, (expected.get(key) ?? 0n) + BigInt(output.amount));
      got.set(key, after[index]! - before[index]!);
    });
    expect(got).toEqual(expected);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    return { row: row!, gasUsed: receipt.gasUsed };
  }

  const fees = () => [{ recipient: chain.accounts.feeRecipient.address, portionBps: 25 }, {}];

  it("accepts a fee quote re-sent without portionBps, and the order fills", async () => {
    const { quote, signature } = await signedFeeQuote(fees());
    expect(quote.orderInfo.outputs[0]!.portionBps).toBe(25);
    const stripped = structuredClone(quote);
    for (const output of stripped.orderInfo.outputs) delete output.portionBps;
    const response = await postOrder({ quote: stripped, signature });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().orderStatus).toBe("open");
    const { row } = await expectFills(response.json().orderId);
    expect(row.outputs.map((o) => o.amount)).toEqual(quote.orderInfo.outputs.map((o) => o.amount));
  });

  it("answers 400 QUOTE_MISMATCH when portionBps is present and differs", async () => {
    const { quote, signature } = await signedFeeQuote(fees());
    const changed = structuredClone(quote);
    changed.orderInfo.outputs[0]!.portionBps = 30;
    const response = await postOrder({ quote: changed, signature });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("QUOTE_MISMATCH");
    expect(response.json().error.details.issues).toEqual([
      { path: "quote.orderInfo.outputs.0.portionBps", message: expect.any(String) },
    ]);
    // A portionBps on the remainder output (which has none) differs too.
    const added = structuredClone(quote);
    added.orderInfo.outputs[1]!.portionBps = 0;
    const addedResponse = await postOrder({ quote: added, signature });
    expect(addedResponse.statusCode).toBe(400);
    expect(addedResponse.json().error.details.issues).toEqual([
      { path: "quote.orderInfo.outputs.1.portionBps", message: expect.any(String) },
    ]);
    // Present and equal is the same quote.
    const same = await postOrder({ quote, signature });
    expect(same.statusCode, same.body).toBe(200);
  });

  it(`quotes, orders and fills a ${MAX_QUOTE_OUTPUTS}-output order; refuses one more output`, async () => {
    // 49 fee outputs of 1 bp, each to its own recipient, and the remainder to the swapper.
    const outputs = [
      ...Array.from({ length: MAX_QUOTE_OUTPUTS - 1 }, (_, i) => ({
        recipient: addressFromSeed(0x5100 + i),
        portionBps: 1,
      })),
      {},
    ];
    const { quote, signature } = await signedFeeQuote(outputs);
    expect(quote.orderInfo.outputs).toHaveLength(MAX_QUOTE_OUTPUTS);
    const response = await postOrder({ quote, signature });
    expect(response.statusCode, response.body).toBe(200);
    const { row, gasUsed } = await expectFills(response.json().orderId);
    expect(row.outputs).toHaveLength(MAX_QUOTE_OUTPUTS);
    // Measured: well within a block (anvil's limit is 30M), so the bound is fillable.
    console.info(`a ${MAX_QUOTE_OUTPUTS}-output fill used ${gasUsed} gas`);
    expect(gasUsed).toBeLessThan(15_000_000n);

    const tooMany = await postQuote([{ recipient: addressFromSeed(0x5200), portionBps: 1 }, ...outputs]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.code).toBe("VALIDATION_FAILED");
    expect(tooMany.json().error.details.issues).toEqual([{ path: "outputs", message: expect.any(String) }]);
  });
});

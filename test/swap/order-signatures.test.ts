// POST /order accepts only swapper signatures the Reactor accepts on-chain (OpenZeppelin SignatureChecker): each
// encoding of an EOA's signature is either rewritten to the canonical 65-byte form before it is verified, stored and
// counter-signed, or refused with 400 INVALID_SIGNATURE, leaving the quote free; an ERC-1271 wallet's signature goes to
// the wallet byte for byte. Every accepted order is filled on anvil; on PGlite and PostgreSQL.
import type { Hex } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { decodeOrder, signOrder } from "../../src/chain/order.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository, type OrderRow } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { deployApprovedWallet, simulateFill, swapLeg } from "../contracts/fill-helpers.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import { approveReactor, fillOrder, signedQuote, useQuotingSwapApp } from "../support/orders.ts";
import { SIGNATURE_FORMS, withYParityV } from "../support/signatures.ts";

const chain = useTestChain();

describe.each(databaseKinds)("POST /order swapper signature forms (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
  });

  const postOrder = (quote: object, signature: Hex) =>
    swap.app.inject({ method: "POST", url: "/api/v1/order", payload: { quote, signature } });

  async function storedOrder(response: Awaited<ReturnType<typeof postOrder>>): Promise<OrderRow> {
    expect(response.statusCode, response.body).toBe(200);
    const row = await new OrderRepository(swap.database, new OrderEvents(), new OrderStats()).findById(
      response.json().orderId,
    );
    if (!row) throw new Error("order not stored");
    return row;
  }

  /** What the Reactor says (a revert's name, or undefined) of `row`'s Order carrying `swapperSignature` instead. */
  async function reactorVerdict(row: OrderRow, swapperSignature: Hex) {
    const order = { ...decodeOrder(row.encodedOrder as Hex), swapperSignature };
    const ref = { chainId: chain.chainId, reactor: chain.core.reactor };
    const total = order.outputs.reduce((sum, output) => sum + output.amount, 0n);
    return simulateFill(chain, {
      request: order.request,
      order,
      protocolSignature: await signOrder(chain.accounts.protocol, ref, order),
      swapInputs: [swapLeg(chain, { amountIn: order.request.amountIn, amountOut: total })],
      discountSwapInputs: undefined,
    });
  }

  it.each(SIGNATURE_FORMS)(
    "$name: accepted only in a form the Reactor fills",
    async ({ name, encode, fault }) => {
      const { quote, signature } = await signedQuote(chain, swap.app);
      const form = encode(signature);
      const response = await postOrder(quote, form);
      let row: OrderRow;
      if (fault) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toMatchObject({
          code: "INVALID_SIGNATURE",
          details: { reason: fault },
        });
        // The quote is not used up: the canonical signature still gets its order.
        row = await storedOrder(await postOrder(quote, signature));
      } else {
        row = await storedOrder(response);
      }
      // Stored, counter-signed and encoded with the canonical form…
      expect(row.swapperSignature).toBe(signature);
      expect(decodeOrder(row.encodedOrder as Hex).swapperSignature).toBe(signature);
      // …because the Reactor refuses every other form as sent (an odd number of hex digits is not even bytes)…
      if (name !== "odd length") {
        expect(await reactorVerdict(row, form)).toBe(
          name === "canonical" ? undefined : "InvalidProtocolSignature",
        );
      }
      // …and fills this one.
      await fillOrder(chain, row);
    },
  );

  it("passes an ERC-1271 swapper's signature to its wallet byte for byte", async () => {
    const owner = chain.accounts.swapper2;
    const wallet = await deployApprovedWallet(chain, owner, 100n * 10n ** 18n);
    const { quote, signature } = await signedQuote(chain, swap.app, {
      swapper: owner,
      swapperAddress: wallet,
    });

    // The wallet checks with OpenZeppelin's ECDSA, which refuses v 0/1; Sluice rewrites nothing for a contract.
    const refused = await postOrder(quote, withYParityV(signature));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: "INVALID_SIGNATURE",
      details: { reason: "refused_by_contract" },
    });

    const row = await storedOrder(await postOrder(quote, signature));
    expect(row.swapper).toBe(wallet.toLowerCase());
    expect(row.swapperSignature).toBe(signature);
    await fillOrder(chain, row);
  });
});

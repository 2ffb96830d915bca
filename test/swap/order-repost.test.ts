// A re-post of a quote (same quote id and signature) always gets the quote's order: one held in its hard round while
// another replica's post creates the order answers that order whatever 409 it then meets — the order filled
// meanwhile (its nonce used on-chain), no solver able to meet the quote any more, the quote expired. (In one process
// the second post would wait for the first: test/swap/solver-capacity.test.ts.) And /order asks the chain nothing
// while its inserting transaction is open. Gated, on PGlite and PostgreSQL.
import { type Hex, toFunctionSelector } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository, type OrderRow } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  quotingBehaviour,
  type SignedQuote,
  signedQuote,
  useQuotingSwapApp,
} from "../support/orders.ts";
import { startRpcGate } from "../support/rpc-gate.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

describe.each(databaseKinds)("POST /order re-posts (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);

  beforeEach(async () => {
    clock.set(Number(await chain.now()) * 1000);
    swap.solver.setBehaviour(quotingBehaviour(chain.core.executors[0]!));
    await approveReactor(chain, chain.accounts.swapper);
  });

  const postOrder = (quote: object, signature: Hex) =>
    swap.app.inject({ method: "POST", url: "/api/v1/order", payload: { quote, signature } });

  const meanwhile: Array<[string, (order: OrderRow, signed: SignedQuote) => Promise<void>]> = [
    [
      "the order is filled (its nonce used on-chain)",
      async (order) => {
        await fillOrder(chain, order);
      },
    ],
    [
      "no solver can meet the quote any more",
      async () => {
        swap.solver.setBehaviour({ kind: "decline" });
      },
    ],
    [
      "the quote expires",
      async (_order, signed) => {
        clock.set((signed.quote.orderInfo.deadline + 1) * 1000);
      },
    ],
  ];

  it.each(meanwhile)("answers the existing order when, during its hard round, %s", async (_name, change) => {
    const signed = await signedQuote(chain, swap.app);
    const held = swap.solver.holdNext();
    const repost = postOrder(signed.quote, signed.signature);
    await held.reached;

    // Another replica on the same database creates the order meanwhile.
    const replica = await createSwapTestApp(chain, swap.database, {
      clock,
      solvers: [{ id: "ext_scripted", endpoint: swap.solver.url }],
    });
    let first: Awaited<ReturnType<typeof postOrder>>;
    try {
      first = await replica.app.inject({
        method: "POST",
        url: "/api/v1/order",
        payload: { quote: signed.quote, signature: signed.signature },
      });
    } finally {
      await replica.close();
    }
    expect(first.statusCode, first.body).toBe(200);
    const orders = new OrderRepository(swap.database, new OrderEvents(), new OrderStats());
    const order = (await orders.findById(first.json().orderId))!;
    await change(order, signed);

    held.release();
    const late = await repost;
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toMatchObject({ orderId: order.orderId });
    expect((await orders.attempts(order.orderId)).map((attempt) => attempt.requestId)).toEqual([
      late.json().requestId,
    ]);
  });

  it.runIf(kind === "postgres")(
    "holds no transaction open while it asks the chain whether the nonce is used",
    async () => {
      const relay = await startRpcGate(chain.rpcUrl);
      const replica = await createSwapTestApp(chain, swap.database, {
        clock,
        solvers: [{ id: "ext_scripted", endpoint: swap.solver.url }],
        rpcUrl: relay.url,
      });
      try {
        const { quote, signature } = await signedQuote(chain, replica.app);
        const held = relay.holdCall(chain.core.reactor, toFunctionSelector("isUsedNonce(address,uint256)"));
        const pending = replica.app.inject({
          method: "POST",
          url: "/api/v1/order",
          payload: { quote, signature },
        });
        await held.reached;
        const sessions = await swap.database.query<{ state: string }>(
          "select state from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'",
        );
        expect(sessions).toEqual([]);
        held.release();
        const response = await pending;
        expect(response.statusCode, response.body).toBe(200);
      } finally {
        await replica.close();
        await relay.close();
      }
    },
  );
});

// The indexer steps as soon as a head arrives (issue 25.1): with its own poll interval far away, a fill is indexed
// and its order reported filled at the head of the fill's block — pushed over WebSocket, or polled — and a burst of
// blocks is caught up to its newest head.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { approveReactor, fillOrder, placeOrder, quotingBehaviour } from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

describe("the indexer following heads", () => {
  const clock = new ManualClock(Date.now());
  let database: Database;
  let solver: ScriptedSolver;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    solver = await startScriptedSolver(quotingBehaviour(chain.core.executors[0]!));
  });
  afterAll(async () => {
    await solver?.close();
    await database?.close();
  });

  for (const mode of ["subscription", "polling"] as const) {
    it(`reports a fill at the head of its block (${mode})`, async () => {
      clock.set(Number(await chain.now()) * 1000);
      const swap = await createSwapTestApp(chain, database, {
        clock,
        solvers: [{ id: "ext_scripted", endpoint: solver.url }],
        // Only a head can make it step: its own timer is ten minutes away.
        indexerPollIntervalMs: 600_000,
        ...(mode === "subscription" ? { webSocketUrl: chain.rpcUrl.replace(/^http/, "ws") } : {}),
      });
      try {
        await approveReactor(chain, chain.accounts.swapper);
        await swap.runtime.start();
        const heads = swap.sluice.deployment!.heads!;
        await eventually(() => heads.mode === mode, `heads arrive by ${mode}`);
        const order = await placeOrder(chain, swap.app, database);
        const filledAt = (
          await chain.publicClient.waitForTransactionReceipt({ hash: await fillOrder(chain, order) })
        ).blockNumber;
        const status = async () =>
          (await swap.app.inject({ url: `/api/v1/orders?orderId=${order.orderId}` })).json().orders[0]
            ?.orderStatus;
        await eventually(async () => (await status()) === "filled", "the fill is reported");
        // No block was mined after the fill's: its own head woke the indexer.
        expect(await chain.publicClient.getBlockNumber()).toBe(filledAt);
        expect(heads.latest).toBe(filledAt);

        // A burst of blocks at once: indexed up to the newest head (the block follower reads every block in order).
        await chain.mine(20);
        const head = await chain.publicClient.getBlockNumber();
        await eventually(async () => {
          const [row] = await database.query<{ number: string }>(
            "select max(number) as number from indexed_blocks",
          );
          return BigInt(row!.number) === head;
        }, "the burst is indexed");
      } finally {
        await swap.close();
      }
    }, 60_000);
  }
});

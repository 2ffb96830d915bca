// A reorg that removes a fill (anvil_reorg, confirmation depth 0, this file's own anvil): the indexer rewinds the
// order to open, and when the fill lands again it is filled again — every step visible in the status history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { ReactorIndexer } from "../../src/indexer/indexer.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { useTestChain } from "../support/anvil.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { approveReactor, fillOrder, placeOrder } from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

describe.each(databaseKinds)("reorg (%s)", (kind) => {
  let database: Database;
  let app: App;
  let solver: ScriptedSolver;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    solver = await startScriptedSolver({ kind: "decline" });
    ({ app } = await createSwapTestApp(chain, database, {
      clock,
      solvers: [{ id: "ext_scripted", endpoint: solver.url }],
    }));
  });
  afterAll(async () => {
    await app?.close();
    await solver?.close();
    await database?.close();
  });

  it("rewinds a fill removed by a reorg and applies it again when it lands again", async () => {
    clock.set(Number(await chain.now()) * 1000);
    solver.setBehaviour({
      kind: "quote",
      filler: chain.core.executors[0]!,
      amountOut: (request) => (BigInt(request.amount) * 98n) / 100n / 10n ** 12n,
    });
    await approveReactor(chain, chain.accounts.swapper);
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    const indexer = new ReactorIndexer({
      database,
      client: chain.publicClient,
      reactor: chain.core.reactor,
      confirmationDepth: 0,
      startBlock: head.number,
      clock,
      logger: silentLogger(),
    });
    const catchUp = async () => {
      for (let i = 0; i < 20; i++) {
        const result = await indexer.step();
        if (result.blocks === 0 && result.rewoundTo === undefined) return;
      }
    };
    const orders = new OrderRepository(database);
    const row = await placeOrder(chain, app, database);

    const firstTx = await fillOrder(chain, row);
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: firstTx });

    // Replace the fill's block with an empty one at the same height.
    await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    expect(await chain.publicClient.getTransactionReceipt({ hash: firstTx }).catch(() => null)).toBeNull();
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({
      status: "open",
      txHash: null,
      settledAmounts: [],
    });

    const secondTx = await fillOrder(chain, row);
    await catchUp();
    expect(await orders.findById(row.orderId)).toMatchObject({ status: "filled", txHash: secondTx });

    const history = await orders.history(row.orderId);
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "open"],
      ["open", "filled"],
      ["filled", "open"],
      ["open", "filled"],
    ]);
    expect(history[2]?.reason).toMatch(/^reorg: block \d+ left the chain/);
    expect(history[1]?.txHash).toBe(firstTx);
    expect(history[3]?.txHash).toBe(secondTx);
  });
});

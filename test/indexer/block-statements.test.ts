// What a fill's block costs the database (issue 25: head → `filled` is a chain of round trips, one after another,
// and the wallet's event waits for the block's commit). The order's select, compare-and-set and history row are one
// statement; no shortfall is read for a fill (only an expiry is judged by it); the lease check, the block's row, the
// fill's row and the order's change are sent together. Every write is still made: the order filled,
// its history row, its scorecard counts and its fade-ledger outcome.
import { describe, expect, it } from "vitest";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  indexUntilCaughtUp,
  placeOrder,
  useQuotingSwapApp,
} from "../support/orders.ts";
import { logStatements } from "../support/statement-log.ts";

const chain = useTestChain();

describe.each(databaseKinds)("a fill's block transaction (%s)", (kind) => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp(kind, chain, clock);

  it("makes six statements in three round trips, and every write of the fill is made", async () => {
    const { database, app, sluice } = swap;
    const indexer = sluice.deployment!.indexer;
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, chain.accounts.swapper);
    await indexUntilCaughtUp(indexer);
    const row = await placeOrder(chain, app, database);
    await fillOrder(chain, row);

    const log = logStatements();
    try {
      await indexUntilCaughtUp(indexer);
    } finally {
      log.stop();
    }
    const fillBlocks = log
      .transactions()
      .filter((tx) => tx.statements.some((statement) => /insert into "reactor_fills"/i.test(statement.text)));
    expect(fillBlocks).toHaveLength(1);
    const statements = fillBlocks[0]!.statements;
    const described = statements.map((statement) => statement.text.replace(/\s+/g, " ").slice(0, 60));
    // Before: the lease check, the block row, the fill row, the order's select, its update, its history row, the
    // shortfall select and the fade ledger's insert: eight statements, each a round trip of its own. Now: the lease
    // check, the block row, the fill row and the order's change at once; the scorecard counts; the fade ledger's row.
    expect(described, described.join("\n")).toHaveLength(6);
    expect(
      statements.filter((statement) => statement.roundTrip),
      described.join("\n"),
    ).toHaveLength(3);

    const [order] = await database.query<{ status: string }>(
      "select status from orders where order_id = $1",
      [row.orderId],
    );
    expect(order?.status).toBe("filled");
    const history = await database.query<{ to_status: string }>(
      "select to_status from order_status_history where order_id = $1 order by id",
      [row.orderId],
    );
    expect(history.map((change) => change.to_status)).toEqual(["open", "filled"]);
    const [outcome] = await database.query<{ outcome: string }>(
      "select outcome from solver_order_outcomes where order_id = $1",
      [row.orderId],
    );
    expect(outcome?.outcome).toBe("filled");
    const counts = await database.query<{ span: string; assigned: string; filled: string }>(
      "select span, assigned::text, filled::text from solver_order_stats where solver_id = $1 order by span",
      [row.solverId],
    );
    expect(counts).toEqual([
      { span: "hour", assigned: "1", filled: "1" },
      { span: "minute", assigned: "1", filled: "1" },
    ]);
  }, 60_000);
});

// OrderRepository.createOnce between concurrent posts of one quote. Concurrent posts build the same Order, so the
// loser's row collides on the order hash as well as on the quote id. PostgreSQL only decides a conflict without an
// error on the indexes the insert names as its arbiters; this file forces the interleaving where the loser meets the
// winner's row on the order-hash index, deterministically: the loser's insert is held (by a third session holding an
// uncommitted row with the loser's order id) between its arbiter check and its index entries while the winner
// commits. The loser must answer the winner's order, not fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { orders } from "../../src/orders/tables.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { createEmptyPostgresDatabase, databaseKinds, type EmptyPostgresDatabase } from "../support/db.ts";
import { eventually, gate } from "../support/gates.ts";
import { newOrder } from "../support/order-rows.ts";
import { logStatements } from "../support/statement-log.ts";

describe.each(databaseKinds)("OrderRepository.createOnce (%s)", (kind) => {
  let database: Database;
  let empty: EmptyPostgresDatabase | undefined;
  beforeAll(async () => {
    if (kind === "postgres") empty = await createEmptyPostgresDatabase();
    database = empty
      ? await openDatabase({ kind: "postgres", url: empty.url, poolSize: 4 })
      : await openDatabase({ kind: "pglite", memory: true });
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await empty?.drop();
  });

  it("answers the existing order to a post whose order collides on both the quote id and the order hash", async () => {
    const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
    const at = new Date(Date.UTC(2026, 5, 1));
    const first = newOrder("ext_once", at);
    const { order, created } = await repository.createOnce(first);
    expect(created).toBe(true);
    // The same Order again, under a new order id: the row a concurrent post builds.
    const again = await repository.createOnce({ ...first, orderId: crypto.randomUUID() });
    expect(again).toMatchObject({ created: false, order: { orderId: order.orderId } });
  });

  it("writes the checks with the order, then its history row with its scorecard counts: two round trips", async () => {
    const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
    const at = new Date(Date.UTC(2026, 5, 3));
    const order = newOrder("ext_trips", at);
    const check = {
      requestId: order.requestId,
      quoteId: order.quoteId,
      check: "signature" as const,
      passed: true,
      detail: "ecdsa",
      createdAt: at,
    };
    const log = logStatements();
    try {
      expect((await repository.createOnce(order, [check])).created).toBe(true);
    } finally {
      log.stop();
    }
    const [created] = log
      .transactions()
      .filter((tx) => tx.statements.some((statement) => /insert into "orders"/.test(statement.text)));
    // Before issue 25: the checks, the order and the history row, one round trip each (the counts rode in a trigger).
    expect(created!.statements).toHaveLength(4);
    expect(created!.statements.filter((statement) => statement.roundTrip)).toHaveLength(2);
    const counts = await database.query<{ span: string; assigned: string }>(
      "select span, assigned::text from solver_order_stats where solver_id = 'ext_trips' order by span",
    );
    expect(counts).toEqual([
      { span: "hour", assigned: "1" },
      { span: "minute", assigned: "1" },
    ]);
  });

  it.runIf(kind === "postgres")(
    "answers the winner's order when the loser meets it on the order-hash index",
    async () => {
      const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
      const at = new Date(Date.UTC(2026, 5, 2));
      const loser = newOrder("ext_once", at);
      const winner = { ...loser, orderId: crypto.randomUUID() };
      // A third session's uncommitted row with the loser's order id (another quote, another hash): the loser's
      // insert waits for it before it writes any index entry of its own.
      const holder = await openDatabase({ kind: "postgres", url: empty!.url, poolSize: 1 });
      const held = gate();
      const rollback = gate();
      const holding = holder.db
        .transaction(async (tx) => {
          await tx.insert(orders).values(newOrder("ext_other", at, { orderId: loser.orderId }));
          held.open();
          await rollback.opened;
          tx.rollback();
        })
        .catch(() => {});
      try {
        await held.opened;
        const losing = repository.createOnce(loser);
        losing.catch(() => {});
        await eventually(
          async () => (await lockWaiters(database)) > 0,
          "the loser's insert waits for the third session",
        );
        // The winner passes while the loser waits, and commits.
        const won = await repository.createOnce(winner);
        expect(won.created).toBe(true);
        rollback.open();
        await holding;
        const lost = await losing;
        expect(lost).toMatchObject({ created: false, order: { orderId: winner.orderId } });
        const rows = await database.query<{ n: string }>(
          "select count(*) as n from orders where quote_id = $1",
          [loser.quoteId],
        );
        expect(rows[0]?.n).toBe("1");
      } finally {
        rollback.open();
        await holding;
        await holder.close();
      }
    },
  );
});

/** Sessions of this database waiting for a lock (a row another transaction holds). */
async function lockWaiters(database: Database): Promise<number> {
  const rows = await database.query<{ n: string }>(
    "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return Number(rows[0]?.n ?? 0);
}

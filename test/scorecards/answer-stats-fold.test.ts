// The fold under a database fault (PostgreSQL behind a TCP proxy this file controls): a fold whose connection is cut
// takes nothing or everything it claimed (one statement), says so once per outage rather than once a second, and the
// next fold after the restore moves every pending row exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { RoundStore } from "../../src/rounds/store.ts";
import { AnswerStatsFold } from "../../src/scorecards/answer-stats-fold.ts";
import { ScorecardRepository } from "../../src/scorecards/repository.ts";
import { createEmptyPostgresDatabase, type EmptyPostgresDatabase } from "../support/db.ts";
import { capturingLogger } from "../support/log-lines.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

const AT = new Date("2026-11-27T10:15:30.000Z");

describe.skipIf(!process.env.TEST_DATABASE_URL)("the scorecard fold on postgres", () => {
  let empty: EmptyPostgresDatabase;
  let direct: Database;
  let proxy: TcpProxy;
  let proxied: Database;

  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    direct = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 2 });
    await migrate(direct);
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    proxied = await openDatabase({
      kind: "postgres",
      url: proxy.proxiedUrl(empty.url),
      poolSize: 2,
      timeouts: { connectMs: 300, idleMs: 10_000, statementMs: 300, lockWaitMs: 1000, keepAliveMs: 1000 },
    });
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
    await proxy?.close();
    await empty?.drop();
  });

  async function pending(): Promise<number> {
    const rows = await direct.query<{ n: string }>("select count(*) as n from solver_answer_stats_pending");
    return Number(rows[0]!.n);
  }

  /** `rounds` rounds of one quoted answer each by solver "a", stored one write each. */
  async function storeRounds(rounds: number): Promise<void> {
    const store = new RoundStore(direct);
    for (let i = 0; i < rounds; i++) {
      await store.saveHardRound(
        [
          {
            requestId: crypto.randomUUID(),
            round: "order",
            solverId: "a",
            quoteId: crypto.randomUUID(),
            outcome: "quoted",
            reason: null,
            detail: null,
            latencyMs: 12,
            amountOut: "1",
            legs: 1,
            createdAt: AT,
          },
        ],
        undefined,
      );
    }
  }

  it("loses nothing and counts nothing twice when its connection is cut, and warns once per outage", async () => {
    const { logger, lines } = capturingLogger<{ level: number; msg: string }>();
    const fold = new AnswerStatsFold(proxied, logger);
    await storeRounds(5);
    expect(await pending()).toBe(5);

    proxy.cut();
    expect(await fold.fold()).toBe(0);
    expect(await fold.fold()).toBe(0);
    await storeRounds(3);
    proxy.restore();

    // The cut folds took nothing, or all of what they had claimed: what is counted plus what is pending is 8.
    const read = async () =>
      (await new ScorecardRepository(direct).answerStats("minute", new Date(0))).reduce(
        (sum, row) => sum + row.offered,
        0,
      );
    expect(await read()).toBe(8);

    // The pool's connections dropped with the cut; the first fold after the restore may still meet one.
    await expect
      .poll(
        async () => {
          await fold.fold();
          return pending();
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(0);
    expect(await read()).toBe(8);
    const stored = await direct.query<{ span: string; offered: string }>(
      "select span, offered from solver_answer_stats order by span",
    );
    expect(stored.map((row) => [row.span, Number(row.offered)])).toEqual([
      ["hour", 8],
      ["minute", 8],
    ]);

    // The outage is warned of once by the database client (src/outages.ts); the fold's own failures during it are
    // explained by it, so they are not warnings of their own.
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([]);
    expect(lines.some((line) => line.msg === "folding scorecard answer counts works again")).toBe(true);
  });
});

// The scorecard aggregates against a recount from the raw rows, on PGlite and PostgreSQL: after batches of /quote
// rounds and hard rounds (the round statements append their counts; reads add them before the fold, the fold moves
// them, folds at once count each once), orders created, filled, expired and cancelled (the counts the order writers pass), after
// a reorg rewind that takes fills back, and the migration's backfill run on the same rows.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { indexedBlocks } from "../../src/indexer/tables.ts";
import { silentLogger } from "../../src/logger.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository } from "../../src/orders/repository.ts";
import { OrderSettlement } from "../../src/orders/settlement.ts";
import { RoundStore, type SolverAnswerRow } from "../../src/rounds/store.ts";
import {
  ANSWER_COUNT_COLUMNS,
  bucketStartOf,
  FOLD_ANSWER_STATS_SQL,
} from "../../src/scorecards/answer-stats.ts";
import { AnswerStatsFold } from "../../src/scorecards/answer-stats-fold.ts";
import { latencyBucket } from "../../src/scorecards/latency-buckets.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { type AnswerStatsRecord, ScorecardRepository } from "../../src/scorecards/repository.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { SOLVER_REJECTIONS } from "../../src/solvers/client.ts";
import type { QuoteRound } from "../../src/swap/quote-round-statement.ts";
import { QuoteRepository } from "../../src/swap/repository.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { newOrder } from "../support/order-rows.ts";

const SOLVERS = ["ext_a", "ext_b", "int_c"];
const START = Date.parse("2026-11-20T10:58:30.000Z");
const MIGRATION = readFileSync(
  new URL("../../src/db/migrations/0008_solver_stats.sql", import.meta.url),
  "utf8",
);

type Row = Record<string, unknown>;

/** Rows keyed span|bucket|solver, histograms without trailing zeros, numbers as numbers. */
function normalize(rows: readonly Row[]): Map<string, Row> {
  return new Map(
    rows.map((row) => {
      const normal: Row = {};
      for (const [key, value] of Object.entries(row)) {
        if (Array.isArray(value)) {
          const counts = value.map(Number);
          while (counts.length > 0 && counts[counts.length - 1] === 0) counts.pop();
          normal[key] = counts;
        } else if (value instanceof Date) normal[key] = value.toISOString();
        else if (key === "span" || key === "solver_id" || key === "bucket_start") normal[key] = value;
        else normal[key] = Number(value);
      }
      if (typeof normal.bucket_start === "string")
        normal.bucket_start = new Date(normal.bucket_start).toISOString();
      return [`${normal.span}|${normal.bucket_start}|${normal.solver_id}`, normal];
    }),
  );
}

/** A recount row at (span, bucket, solver), created empty. */
function rowAt(rows: Map<string, Row>, span: string, at: Date, solverId: string, empty: () => Row): Row {
  const bucket = bucketStartOf(span as "hour" | "minute", at).toISOString();
  const key = `${span}|${bucket}|${solverId}`;
  let row = rows.get(key);
  if (!row) {
    row = { span, bucket_start: bucket, solver_id: solverId, ...empty() };
    rows.set(key, row);
  }
  return row;
}

const RECORD_FIELD: Record<(typeof ANSWER_COUNT_COLUMNS)[number], keyof AnswerStatsRecord> = {
  offered: "offered",
  quoted: "quoted",
  declined: "declined",
  rejected_timeout: "rejectedTimeout",
  rejected_http_status: "rejectedHttpStatus",
  rejected_invalid_body: "rejectedInvalidBody",
  rejected_echo_mismatch: "rejectedEchoMismatch",
  rejected_wrong_filler: "rejectedWrongFiller",
  rejected_zero_amount: "rejectedZeroAmount",
  rejected_network: "rejectedNetwork",
  soft_wins: "softWins",
  hard_wins: "hardWins",
};

function countOf(record: AnswerStatsRecord, column: (typeof ANSWER_COUNT_COLUMNS)[number]): number {
  return record[RECORD_FIELD[column]] as number;
}

function addBucket(row: Row, column: string, bucket: number, by = 1): void {
  const counts = row[column] as number[];
  while (counts.length <= bucket) counts.push(0);
  counts[bucket]! += by;
}

describe.each(databaseKinds)("scorecard aggregates (%s)", (kind) => {
  let database: Database;
  let quotesRepo: QuoteRepository;
  let roundStore: RoundStore;
  let orders: OrderRepository;
  let settlement: OrderSettlement;
  const random = mulberry32(15);
  /** Hard-round winners and the orders they made, to settle later. */
  const placed: Array<{ orderId: string; createdAt: Date }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    quotesRepo = new QuoteRepository(database);
    roundStore = new RoundStore(database);
    orders = new OrderRepository(database, new OrderEvents(), new OrderStats());
    settlement = new OrderSettlement(database, new OrderStats());
  });
  afterAll(async () => {
    await database?.close();
  });

  async function stored(table: string): Promise<Map<string, Row>> {
    return normalize(await database.query<Row>(`select * from ${table}`));
  }

  async function pendingRows(): Promise<number> {
    const rows = await database.query<{ n: string | number }>(
      "select count(*) as n from solver_answer_stats_pending",
    );
    return Number(rows[0]!.n);
  }

  /** The answer counts as the scorecards read them (aggregate and pending rows), summed per key. */
  async function readAnswers(): Promise<Map<string, Row>> {
    const repository = new ScorecardRepository(database);
    const summed = new Map<string, Row>();
    for (const span of ["hour", "minute"] as const) {
      for (const record of await repository.answerStats(span, new Date(0))) {
        const key = `${span}|${record.bucketStart.toISOString()}|${record.solverId}`;
        const row = summed.get(key) ?? {
          span,
          bucket_start: record.bucketStart,
          solver_id: record.solverId,
          ...Object.fromEntries(ANSWER_COUNT_COLUMNS.map((column) => [column, 0])),
          latency_counts: [] as number[],
        };
        for (const column of ANSWER_COUNT_COLUMNS) (row[column] as number) += countOf(record, column);
        for (const [bucket, n] of record.latencyCounts.entries()) addBucket(row, "latency_counts", bucket, n);
        summed.set(key, row);
      }
    }
    return normalize([...summed.values()]);
  }

  /** Every solver_answer_stats row, recounted from solver_answers, quotes (rank 0) and orders (hard wins). */
  async function recountAnswers(): Promise<Map<string, Row>> {
    const rows = new Map<string, Row>();
    const empty = () => ({
      offered: 0,
      quoted: 0,
      declined: 0,
      ...Object.fromEntries(SOLVER_REJECTIONS.map((reason) => [`rejected_${reason}`, 0])),
      soft_wins: 0,
      hard_wins: 0,
      latency_counts: [] as number[],
    });
    const answers = await database.query<Row>(
      `select a.solver_id, a.outcome, a.reason, a.latency_ms, a.created_at,
              exists (select 1 from orders o where a.round = 'order' and o.request_id = a.request_id
                        and o.solver_id = a.solver_id) as won
         from solver_answers a`,
    );
    for (const answer of answers) {
      for (const span of ["hour", "minute"]) {
        const row = rowAt(
          rows,
          span,
          new Date(answer.created_at as string),
          answer.solver_id as string,
          empty,
        );
        (row.offered as number)++;
        if (answer.outcome === "quoted") (row.quoted as number)++;
        if (answer.outcome === "declined") (row.declined as number)++;
        if (answer.reason) (row[`rejected_${answer.reason}`] as number)++;
        if (answer.won) (row.hard_wins as number)++;
        if (answer.reason !== "timeout" && answer.reason !== "network")
          addBucket(row, "latency_counts", latencyBucket(Number(answer.latency_ms)));
      }
    }
    const wins = await database.query<Row>("select solver_id, created_at from quotes where rank = 0");
    for (const win of wins) {
      for (const span of ["hour", "minute"]) {
        (rowAt(rows, span, new Date(win.created_at as string), win.solver_id as string, empty)
          .soft_wins as number)++;
      }
    }
    return normalize([...rows.values()]);
  }

  /** Every solver_order_stats row, recounted from orders, their quotes and the fill blocks' times. */
  async function recountOrders(): Promise<Map<string, Row>> {
    const rows = new Map<string, Row>();
    const empty = () => ({
      assigned: 0,
      filled: 0,
      expired: 0,
      improvement_bps_sum: 0,
      improvement_count: 0,
      fill_latency_counts: [] as number[],
    });
    const stored = await database.query<Row>(
      `select o.solver_id, o.status, o.created_at, o.outputs, q.amount_out as quoted, b.timestamp as fill_time,
              o.filled_at
         from orders o join quotes q on q.quote_id = o.quote_id
         left join indexed_blocks b on b.number = o.fill_block_number`,
    );
    for (const order of stored) {
      const createdAt = new Date(order.created_at as string);
      for (const span of ["hour", "minute"]) {
        const row = rowAt(rows, span, createdAt, order.solver_id as string, empty);
        (row.assigned as number)++;
        if (order.status === "expired") (row.expired as number)++;
        if (order.status !== "filled") continue;
        (row.filled as number)++;
        const quoted = BigInt(order.quoted as string);
        const committed = (order.outputs as Array<{ amount: string }>).reduce(
          (sum, o) => sum + BigInt(o.amount),
          0n,
        );
        // floor, also for a negative difference
        const scaled = (committed - quoted) * 10000n;
        const bps = scaled / quoted - (scaled % quoted < 0n ? 1n : 0n);
        (row.improvement_bps_sum as number) += Number(bps);
        (row.improvement_count as number)++;
        // To the moment the indexer saw the fill; orders filled before that was kept, to their block's time.
        const filledAt = order.filled_at
          ? new Date(order.filled_at as string).getTime()
          : Number(order.fill_time) * 1000;
        const latency = Math.max(0, filledAt - createdAt.getTime());
        addBucket(row, "fill_latency_counts", latencyBucket(latency));
      }
    }
    return normalize([...rows.values()]);
  }

  /** Random /quote rounds (stored in batches) and hard rounds over three hours, each winner's order created. */
  async function playRounds(count: number): Promise<void> {
    let batch: QuoteRound[] = [];
    for (let i = 0; i < count; i++) {
      const at = new Date(START + Math.floor(random() * 3 * 3600_000));
      const requestId = randomUUID();
      const answers: SolverAnswerRow[] = SOLVERS.map((solverId) => answer(requestId, "quote", solverId, at));
      const quoted = answers
        .filter((a) => a.outcome === "quoted")
        .sort((a, b) => (BigInt(b.amountOut!) > BigInt(a.amountOut!) ? 1 : -1));
      const entries = quoted.map((a, rank) => ({
        quoteId: a.quoteId,
        requestId,
        solverId: a.solverId,
        filler: "0x00000000000000000000000000000000000000f1",
        rank,
        tokenIn: "0x0000000000000000000000000000000000000001",
        amountIn: "1000000000000000000",
        tokenOut: "0x0000000000000000000000000000000000000002",
        amountOut: a.amountOut!,
        outputs: [],
        deadline: 1_900_000_000,
        nonce: String(i),
        protocol: "0x0000000000000000000000000000000000000004",
        createdAt: at,
      }));
      batch.push({ request: request(requestId, at), answers, entries });
      if (batch.length === 4 || i === count - 1) {
        await quotesRepo.saveQuoteRounds(batch);
        batch = [];
      }
      const taken = entries[0];
      if (!taken || random() < 0.3) continue;
      // The hard round: everyone asked again; the best answer meeting the quoted total wins and becomes the order.
      const hardAt = new Date(at.getTime() + 5000);
      const hardId = randomUUID();
      const hard = SOLVERS.map((solverId) => answer(hardId, "order", solverId, hardAt, taken.quoteId));
      const winner = hard
        .filter((a) => a.outcome === "quoted" && BigInt(a.amountOut!) >= BigInt(taken.amountOut))
        .sort((a, b) => (BigInt(b.amountOut!) > BigInt(a.amountOut!) ? 1 : -1))[0];
      await roundStore.saveHardRound(hard, winner?.solverId);
      if (!winner) continue;
      const order = newOrder(winner.solverId, hardAt, {
        quoteId: taken.quoteId,
        requestId: hardId,
        quoteRequestId: taken.requestId,
        tokenOut: taken.tokenOut,
        // As POST /order stores them: the entry's quoted total and the total the Order commits.
        quotedAmountOut: taken.amountOut,
        committedAmountOut: winner.amountOut!,
        outputs: [
          { token: taken.tokenOut, recipient: "0x0000000000000000000000000000000000000005", amount: "1000" },
          {
            token: taken.tokenOut,
            recipient: "0x0000000000000000000000000000000000000006",
            amount: (BigInt(winner.amountOut!) - 1000n).toString(),
          },
        ],
      });
      const { order: row } = await orders.createOnce(order);
      placed.push({ orderId: row.orderId, createdAt: row.createdAt });
    }
  }

  function answer(
    requestId: string,
    round: "quote" | "order",
    solverId: string,
    at: Date,
    quoteId: string = randomUUID(),
  ): SolverAnswerRow {
    const roll = random();
    const latencyMs = Math.round(Math.exp(random() * Math.log(20_000)) * 1000) / 1000 - 0.5;
    const base = { requestId, round, solverId, quoteId, detail: null, legs: 1, createdAt: at };
    if (roll < 0.6) {
      const amountOut = (980_000n + BigInt(Math.floor(random() * 40_000))).toString();
      return { ...base, outcome: "quoted", reason: null, latencyMs, amountOut };
    }
    if (roll < 0.75) return { ...base, outcome: "declined", reason: null, latencyMs, amountOut: null };
    const reason = SOLVER_REJECTIONS[Math.floor(random() * SOLVER_REJECTIONS.length)]!;
    return { ...base, outcome: "rejected", reason, detail: `why ${reason}`, latencyMs, amountOut: null };
  }

  function request(requestId: string, at: Date) {
    return {
      requestId,
      swapper: "0x0000000000000000000000000000000000000005",
      tokenIn: "0x0000000000000000000000000000000000000001",
      tokenOut: "0x0000000000000000000000000000000000000002",
      amount: "1000000000000000000",
      outputs: [],
      solverIds: null,
      routingPreference: "BEST_PRICE",
      permitAmount: null,
      inventoryBlock: null,
      createdAt: at,
    };
  }

  it("answer counts equal a recount of the stored answers after batches of /quote and hard rounds", async () => {
    await playRounds(120);
    expect(placed.length).toBeGreaterThan(20);
    // Before any fold, the reads count what the statements appended.
    expect(await pendingRows()).toBeGreaterThan(20);
    expect(await stored("solver_answer_stats")).toEqual(new Map());
    const recount = await recountAnswers();
    expect(await readAnswers()).toEqual(recount);
    // Half of it folded: the reads add the other half to the aggregate's rows.
    await database.query(FOLD_ANSWER_STATS_SQL, [Math.floor((await pendingRows()) / 2)]);
    expect(await pendingRows()).toBeGreaterThan(10);
    expect(await readAnswers()).toEqual(recount);
    // The rest folded by the worker's fold: the aggregate alone holds the recount, nothing is pending.
    await new AnswerStatsFold(database, silentLogger()).fold();
    expect(await pendingRows()).toBe(0);
    const live = await stored("solver_answer_stats");
    expect(live).toEqual(recount);
    expect(await readAnswers()).toEqual(recount);
    // Both spans of every solver were written, and histograms are not empty.
    expect([...live.values()].filter((row) => row.span === "hour").length).toBeGreaterThanOrEqual(
      SOLVERS.length,
    );
    expect([...live.values()].some((row) => (row.latency_counts as number[]).length > 10)).toBe(true);
  });

  it("folds running at once count every pending row once", async () => {
    const before = await recountAnswers();
    await playRounds(60);
    expect(await pendingRows()).toBeGreaterThan(20);
    // Small batches, many folds at once (on PostgreSQL each on its own pooled connection).
    const folds = await Promise.all(
      Array.from({ length: 6 }, async () => {
        let taken = 0;
        for (;;) {
          const rows = await database.query<{ taken: string | number }>(FOLD_ANSWER_STATS_SQL, [3]);
          const n = Number(rows[0]!.taken);
          taken += n;
          if (n === 0) return taken;
        }
      }),
    );
    expect(folds.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(20);
    expect(await pendingRows()).toBe(0);
    const recount = await recountAnswers();
    expect(recount).not.toEqual(before);
    expect(await stored("solver_answer_stats")).toEqual(recount);
  });

  it("order counts follow creation, fills, expiries and cancels, and a reorg rewind takes fills back", async () => {
    // Blocks 1..n, one per order, each a few seconds to minutes after the order it may fill.
    const blocks = placed.map((order, index) => ({
      number: BigInt(index + 1),
      hash: `0x${(index + 1).toString(16).padStart(64, "0")}`,
      parentHash: `0x${index.toString(16).padStart(64, "0")}`,
      timestamp: BigInt(Math.floor(order.createdAt.getTime() / 1000) + 1 + Math.floor(random() * 300)),
    }));
    await database.db.insert(indexedBlocks).values(blocks);
    const at = new Date(START + 4 * 3600_000);
    await database.db.transaction(async (tx) => {
      for (const [index, order] of placed.entries()) {
        const roll = random();
        const blockNumber = BigInt(index + 1);
        if (roll < 0.6) {
          await settlement.change(tx, {
            orderId: order.orderId,
            from: "open",
            to: "filled",
            reason: "Fill event",
            blockNumber,
            txHash: "0x01",
            at,
          });
        } else if (roll < 0.8) {
          await settlement.change(tx, {
            orderId: order.orderId,
            from: "open",
            to: "expired",
            reason: "expired",
            blockNumber,
            at,
          });
        } else if (roll < 0.9) {
          await settlement.change(tx, {
            orderId: order.orderId,
            from: "open",
            to: "cancelled",
            reason: "nonce",
            blockNumber,
            at,
          });
        }
      }
    });
    const settled = await stored("solver_order_stats");
    expect(settled).toEqual(await recountOrders());
    const filled = [...settled.values()]
      .filter((row) => row.span === "hour")
      .reduce((n, row) => n + (row.filled as number), 0);
    expect(filled).toBeGreaterThan(5);

    // A reorg back to the middle block: every later fill, expiry and cancel goes back to open.
    const forkPoint = BigInt(Math.floor(placed.length / 2));
    const rewound = await database.db.transaction((tx) => settlement.rewindAbove(tx, forkPoint, at));
    expect(rewound.some((change) => change.from === "filled" && change.to === "open")).toBe(true);
    const after = await stored("solver_order_stats");
    expect(after).toEqual(await recountOrders());
    const filledAfter = [...after.values()]
      .filter((row) => row.span === "hour")
      .reduce((n, row) => n + (row.filled as number), 0);
    expect(filledAfter).toBeLessThan(filled);
  });

  it("a Fill after an expiry moves the order from the expired counts to the filled ones", async () => {
    const [expired] = await database.query<{ order_hash: string }>(
      "select order_hash from orders where status = 'expired' order by created_at limit 1",
    );
    expect(expired).toBeDefined();
    const before = await stored("solver_order_stats");
    const number = BigInt(placed.length + 50);
    await database.db.insert(indexedBlocks).values({
      number,
      hash: `0x${number.toString(16).padStart(64, "d")}`,
      parentHash: `0x${"c".repeat(64)}`,
      timestamp: BigInt(Math.floor(START / 1000) + 5 * 3600),
    });
    const applied = await database.db.transaction((tx) =>
      settlement.fill(tx, {
        orderHash: expired!.order_hash,
        blockNumber: number,
        txHash: "0x03",
        settledAmounts: [],
        at: new Date(START + 5 * 3600_000),
      }),
    );
    expect(applied?.event).toMatchObject({ from: "expired", to: "filled" });
    const after = await stored("solver_order_stats");
    expect(after).not.toEqual(before);
    expect(after).toEqual(await recountOrders());
  });

  it("measures a fill from the order's acceptance to the moment the indexer saw it, not to its block's whole second", async () => {
    // An order still open after the rewind, its fill mined in the very second it was accepted (a 1 s chain), seen
    // by the indexer 1,234 ms after the acceptance.
    const [open] = await database.query<{ order_id: string; created_at: string }>(
      "select order_id, created_at::text from orders where status = 'open' order by created_at desc limit 1",
    );
    const createdAt = new Date(open!.created_at);
    const number = BigInt(placed.length + 100);
    await database.db.insert(indexedBlocks).values({
      number,
      hash: `0x${number.toString(16).padStart(64, "f")}`,
      parentHash: `0x${"e".repeat(64)}`,
      timestamp: BigInt(Math.floor(createdAt.getTime() / 1000)),
    });
    await database.db.transaction((tx) =>
      settlement.change(tx, {
        orderId: open!.order_id,
        from: "open",
        to: "filled",
        reason: "Fill event",
        blockNumber: number,
        txHash: "0x02",
        at: new Date(createdAt.getTime() + 1234),
      }),
    );
    const [bucket] = await database.query<{ bucket: number }>(
      "select order_fill_latency_bucket(o) as bucket from orders o where order_id = $1",
      [open!.order_id],
    );
    expect(Number(bucket!.bucket)).toBe(latencyBucket(1234));
    expect(await stored("solver_order_stats")).toEqual(await recountOrders());
  });

  it("the migration's backfill computes the same rows from the stored answers and orders", async () => {
    const answersBefore = await stored("solver_answer_stats");
    const ordersBefore = await stored("solver_order_stats");
    const backfill = MIGRATION.split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter((statement) => /^(-- .*\n)*INSERT INTO "solver_(answer|order)_stats"/.test(statement));
    expect(backfill).toHaveLength(3);
    await database.db.transaction(async (tx) => {
      await tx.execute("truncate solver_answer_stats, solver_order_stats");
      for (const statement of backfill) await tx.execute(statement);
    });
    expect(await stored("solver_answer_stats")).toEqual(answersBefore);
    expect(await stored("solver_order_stats")).toEqual(ordersBefore);
  });

  it("buckets latencies as the database does, at and around every bound", async () => {
    const samples = [0, 0.999, 1, 1.001, 1.188, 1.189, 41.5, 1000, 1024, 14107900.792, 2e7];
    const rows = await database.query<{ ms: number; bucket: number }>(
      "select ms, solver_latency_bucket(ms) as bucket from unnest($1::float8[]) as ms",
      [samples],
    );
    expect(rows.map((row) => Number(row.bucket))).toEqual(samples.map(latencyBucket));
  });
});

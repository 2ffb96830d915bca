// The scorecards and the solver metrics through the real swap flow, on PGlite and PostgreSQL: /quote rounds against
// scripted solvers (quoting, declining, failing in every way a solver can, timing out), a hard round that becomes
// an order, its fill on anvil seen by the indexer. GET /solvers equals a recount of the stored answers and orders,
// and this process's Prometheus counters say the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { SolversResponseSchema } from "../../src/scorecards/schemas.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import {
  approveReactor,
  fillOrder,
  indexUntilCaughtUp,
  placeOrder,
  quoteRequestBody,
} from "../support/orders.ts";
import { type ScriptedSolver, type SolverBehaviour, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

const chain = useTestChain();

describe.each(databaseKinds)("scorecards through the swap flow (%s)", (kind) => {
  let database: Database;
  let swap: SwapTestApp;
  let alpha: ScriptedSolver;
  let beta: ScriptedSolver;
  let gamma: ScriptedSolver;
  const clock = new ManualClock();
  const quoting = (bps: bigint): Extract<SolverBehaviour, { kind: "quote" }> => ({
    kind: "quote",
    filler: chain.core.executors[0]!,
    amountOut: (r: SolverQuoteRequest) => (BigInt(r.amount) * bps) / 10_000n / 10n ** 12n,
  });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    alpha = await startScriptedSolver(quoting(9_800n));
    beta = await startScriptedSolver({ kind: "decline" });
    gamma = await startScriptedSolver({ kind: "stall" });
    clock.set(Number(await chain.now()) * 1000);
    swap = await createSwapTestApp(chain, database, {
      clock,
      solvers: [
        { id: "ext_alpha", endpoint: alpha.url },
        { id: "ext_beta", endpoint: beta.url },
        { id: "ext_gamma", endpoint: gamma.url },
      ],
      deployment: { solverTimeoutMs: 150 },
      indexer: false,
    });
  });
  afterAll(async () => {
    await swap?.close();
    await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
    await database?.close();
  });

  async function quote(): Promise<void> {
    const response = await swap.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 10n ** 18n, swapper: chain.accounts.swapper.address }),
    });
    expect(response.statusCode).toBe(200);
  }

  it("counts every round, win, order and fill as the stored rows and the process's counters do", async () => {
    const behaviours: SolverBehaviour[] = [
      { kind: "decline" },
      { kind: "status", status: 500 },
      { kind: "garbage", body: "{not json" },
      { ...quoting(9_900n), filler: "0x000000000000000000000000000000000000bad0" },
      { ...quoting(0n) },
      { ...quoting(9_900n), echo: { requestId: "00000000-0000-4000-8000-000000000000" } },
      quoting(9_900n),
    ];
    for (const behaviour of behaviours) {
      beta.setBehaviour(behaviour);
      await quote();
    }
    // The hard round: alpha quotes more than beta now, so the order is alpha's.
    beta.setBehaviour(quoting(9_700n));
    await approveReactor(chain, chain.accounts.swapper);
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    await database.query(
      "insert into indexed_blocks (number, hash, parent_hash, timestamp) values ($1, $2, $3, $4) on conflict do nothing",
      [head.number.toString(), head.hash, head.parentHash, head.timestamp.toString()],
    );
    const order = await placeOrder(chain, swap.app, database);
    expect(order.solverId).toBe("ext_alpha");
    await fillOrder(chain, order);
    await indexUntilCaughtUp(swap.runtime.indexer);
    await swap.sluice.deployment!.quotes.roundWriter.drain();
    clock.advance(1000);

    const response = await swap.app.inject({ method: "GET", url: "/api/v1/solvers" });
    expect(response.statusCode).toBe(200);
    const { solvers } = SolversResponseSchema.parse(response.json());
    const card = (id: string) => solvers.find((s) => s.id === id)!.scorecard.hour;

    const recount = await database.query<{
      solver_id: string;
      outcome: string;
      reason: string | null;
      n: string;
    }>("select solver_id, outcome, reason, count(*) as n from solver_answers group by 1, 2, 3");
    for (const id of ["ext_alpha", "ext_beta", "ext_gamma"]) {
      const rows = recount.filter((row) => row.solver_id === id);
      const total = (where: (row: (typeof rows)[number]) => boolean) =>
        rows.filter(where).reduce((n, row) => n + Number(row.n), 0);
      const { auctions } = card(id);
      expect(auctions.offered).toBe(total(() => true));
      expect(auctions.quoted).toBe(total((row) => row.outcome === "quoted"));
      expect(auctions.declined).toBe(total((row) => row.outcome === "declined"));
      for (const [reason, n] of Object.entries(auctions.rejected)) {
        expect(n, `${id} ${reason}`).toBe(total((row) => row.reason === reason));
      }
    }
    // Beta failed once in each way but network; gamma only timed out (no answer latency).
    expect(card("ext_beta").auctions.rejected).toEqual({
      timeout: 0,
      http_status: 1,
      invalid_body: 1,
      echo_mismatch: 1,
      wrong_filler: 1,
      zero_amount: 1,
      network: 0,
    });
    expect(card("ext_gamma").auctions.rejected.timeout).toBe(behaviours.length + 2);
    expect(card("ext_gamma").answerLatencyMs).toEqual({ p50: null, p99: null });
    // The last behaviour (9 900 bps) beat alpha once; alpha won the rest and the hard round.
    expect(card("ext_beta").wins).toEqual({ soft: 1, hard: 0 });
    expect(card("ext_alpha").wins).toEqual({ soft: behaviours.length, hard: 1 });
    expect(card("ext_alpha").orders).toEqual({ assigned: 1, filled: 1, expired: 0 });
    expect(card("ext_alpha").fillLatencyMs.p50).not.toBeNull();
    expect(card("ext_alpha").priceImprovement).toEqual({ averageBps: 0, filledOrders: 1 });

    const metrics = (await swap.internal.inject({ method: "GET", url: "/metrics" })).body;
    const sample = (series: string) => Number(metrics.match(new RegExp(`^${series} (\\S+)$`, "m"))?.[1] ?? 0);
    expect(
      sample('sluice_solver_answers_total{solver="ext_beta",outcome="rejected",reason="http_status"}'),
    ).toBe(1);
    expect(
      sample('sluice_solver_answers_total{solver="ext_gamma",outcome="rejected",reason="timeout"}'),
    ).toBe(behaviours.length + 2);
    expect(sample('sluice_solver_wins_total{solver="ext_alpha",round="hard"}')).toBe(1);
    expect(sample('sluice_solver_wins_total{solver="ext_beta",round="soft"}')).toBe(1);
    expect(sample('sluice_solver_orders_total{solver="ext_alpha",event="assigned"}')).toBe(1);
    expect(sample('sluice_solver_orders_total{solver="ext_alpha",event="filled"}')).toBe(1);
    expect(sample('sluice_solver_answer_latency_seconds_count{solver="ext_alpha"}')).toBe(
      card("ext_alpha").auctions.offered,
    );
  });
});

// The auction against real HTTP solver servers: every misbehaviour is recorded and ignored, the rest still win.
import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuctionParticipant, rankQuotes, runAuction } from "../../src/rounds/auction.ts";
import type { requestSolverQuote, SolverOutcome } from "../../src/solvers/client.ts";
import { SolverConcurrency } from "../../src/solvers/concurrency.ts";
import type { Solver } from "../../src/solvers/directory.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const swapper = addr(0x5);
const tokenIn = addr(0x7);
const tokenOut = addr(0x11);

function solverAt(id: string, endpoint: string, filler: Address): Solver {
  return { id, name: id, endpoint, filler, internal: false, enabled: true, sharedSecret: `secret-${id}` };
}

function requestFor(participant: AuctionParticipant, requestId: string): SolverQuoteRequest {
  return {
    requestId,
    quoteId: participant.quoteId,
    tokenInChainId: 31337,
    tokenOutChainId: 31337,
    swapper,
    tokenIn,
    tokenOut,
    amount: "1000000000000000000",
    type: "EXACT_INPUT",
    protocol: "v1",
    numOutputs: 1,
    adapters: [
      {
        adapter: addr(0xa1),
        asset: tokenOut,
        assetDecimals: 6,
        maxAssets: "1000000000",
        maxRate: "990000000000000000",
      },
    ],
  };
}

describe("auction over HTTP solvers", () => {
  const servers: ScriptedSolver[] = [];
  const start = async (...args: Parameters<typeof startScriptedSolver>) => {
    const server = await startScriptedSolver(...args);
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  let good: ScriptedSolver;
  let better: ScriptedSolver;
  beforeAll(async () => {
    good = await start({ kind: "quote", filler: addr(0xf1), amountOut: () => 990_000n });
    better = await start({ kind: "quote", filler: addr(0xf2), amountOut: () => 995_000n }, "/rfq/v1");
  });

  async function auction(solvers: Solver[], timeoutMs = 400) {
    const requestId = randomUUID();
    const participants = solvers.map((solver) => ({ solver, quoteId: randomUUID(), legs: [] }));
    const { results, busy } = await runAuction({
      participants,
      timeoutMs,
      buildRequest: (p) => requestFor(p, requestId),
    });
    expect(busy).toEqual([]);
    return { results, requestId };
  }

  it("ignores a solver that times out, fails, garbles, mis-echoes or names another filler; the others win", async () => {
    const stall = await start({ kind: "stall" });
    const failing = await start({ kind: "status", status: 500 });
    const garbage = await start({ kind: "garbage", body: "<html>nope" });
    const wrongEcho = await start({
      kind: "quote",
      filler: addr(0xf5),
      amountOut: () => 999_999n,
      echo: { amountIn: "1" },
    });
    const wrongFiller = await start({ kind: "quote", filler: addr(0xbad), amountOut: () => 999_999n });
    const zero = await start({ kind: "quote", filler: addr(0xf7), amountOut: () => 0n });
    const declining = await start({ kind: "decline" });
    const solvers = [
      solverAt("ext_good", good.url, addr(0xf1)),
      solverAt("ext_better", better.url, addr(0xf2)),
      solverAt("ext_stall", stall.url, addr(0xf3)),
      solverAt("ext_failing", failing.url, addr(0xf4)),
      solverAt("ext_echo", wrongEcho.url, addr(0xf5)),
      solverAt("ext_filler", wrongFiller.url, addr(0xf6)),
      solverAt("ext_zero", zero.url, addr(0xf7)),
      solverAt("ext_decline", declining.url, addr(0xf8)),
      solverAt("ext_garbage", garbage.url, addr(0xf9)),
      solverAt("ext_closed", "http://127.0.0.1:1", addr(0xfa)),
    ];
    const { results } = await auction(solvers);
    const outcome = (id: string) => results.find((r) => r.participant.solver.id === id)?.outcome;
    expect(outcome("ext_stall")).toMatchObject({ kind: "rejected", reason: "timeout" });
    expect(outcome("ext_failing")).toMatchObject({
      kind: "rejected",
      reason: "http_status",
      detail: "HTTP 500",
    });
    expect(outcome("ext_garbage")).toMatchObject({ kind: "rejected", reason: "invalid_body" });
    expect(outcome("ext_echo")).toMatchObject({
      kind: "rejected",
      reason: "echo_mismatch",
      detail: "amountIn differs from the request",
    });
    expect(outcome("ext_filler")).toMatchObject({ kind: "rejected", reason: "wrong_filler" });
    expect(outcome("ext_zero")).toMatchObject({ kind: "rejected", reason: "zero_amount" });
    expect(outcome("ext_decline")).toMatchObject({ kind: "declined" });
    expect(outcome("ext_closed")).toMatchObject({ kind: "rejected", reason: "network" });
    expect(rankQuotes(results).map((r) => r.participant.solver.id)).toEqual(["ext_better", "ext_good"]);
  });

  it("closes as soon as every solver has answered", async () => {
    const { results } = await auction([solverAt("ext_good", good.url, addr(0xf1))], 10_000);
    expect(results[0]?.outcome.kind).toBe("quoted");
  });

  it("posts to {endpoint}/quote keeping the base path, with the solver's own secret and a fresh quote id each", async () => {
    const before = better.requests.length;
    const { requestId } = await auction([
      solverAt("ext_better", better.url, addr(0xf2)),
      solverAt("ext_good", good.url, addr(0xf1)),
    ]);
    const seen = better.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: "/rfq/v1/quote", secret: "secret-ext_better" });
    expect(seen[0]?.body.requestId).toBe(requestId);
    expect(seen[0]?.body.quoteId).not.toBe(good.requests.at(-1)?.body.quoteId);
  });

  it("asks more than 10 solvers without adding listeners to shared objects (no MaxListenersExceededWarning)", async () => {
    const many = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        start({ kind: "quote", filler: addr(0x100 + index), amountOut: () => 1_000n + BigInt(index) }),
      ),
    );
    const solvers = many.map((server, index) =>
      solverAt(`ext_many${index}`, server.url, addr(0x100 + index)),
    );
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      // Twice: the second auction reuses the kept-alive connections of the first.
      for (let round = 0; round < 2; round++) {
        const { results } = await auction(solvers, 5000);
        expect(rankQuotes(results)).toHaveLength(12);
      }
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });

  it("breaks equal amounts by the faster answer (50 ms against 400 ms)", async () => {
    const slow = await start({ kind: "quote", filler: addr(0xa), amountOut: () => 1_000n, delayMs: 400 });
    const fast = await start({ kind: "quote", filler: addr(0xb), amountOut: () => 1_000n, delayMs: 50 });
    const { results } = await auction(
      [solverAt("ext_slow", slow.url, addr(0xa)), solverAt("ext_fast", fast.url, addr(0xb))],
      2000,
    );
    expect(rankQuotes(results).map((r) => r.participant.solver.id)).toEqual(["ext_fast", "ext_slow"]);
  });
});

describe("a solver's concurrency cap", () => {
  /** A transport whose requests hang until the test releases them all; records who was asked. */
  function heldTransport() {
    const asked: string[] = [];
    const waiting: Array<() => void> = [];
    const ask: typeof requestSolverQuote = async (solver) => {
      asked.push(solver.id);
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { kind: "declined", latencyMs: 1 } satisfies SolverOutcome;
    };
    const releaseAll = () => {
      for (const release of waiting.splice(0)) release();
    };
    return { asked, ask, releaseAll };
  }

  const roundOf =
    (concurrency: SolverConcurrency, ask: typeof requestSolverQuote) => (solvers: Solver[], client: string) =>
      runAuction({
        participants: solvers.map((solver) => ({ solver, quoteId: randomUUID(), legs: [] })),
        buildRequest: (participant) => requestFor(participant, randomUUID()),
        timeoutMs: 5_000,
        ask,
        concurrency: { slots: concurrency, client },
      });
  const ids = (participants: readonly { solver: Solver }[]) => participants.map((p) => p.solver.id);

  it("leaves a solver at its cap out of a round (not asked, listed busy), and asks it again once a slot frees", async () => {
    const concurrency = new SolverConcurrency();
    const capped: Solver = {
      ...solverAt("ext_capped", "http://127.0.0.1:9", addr(0xf3)),
      maxConcurrentRequests: 1,
    };
    const other = solverAt("ext_other", "http://127.0.0.1:9", addr(0xf4));
    const { asked, ask, releaseAll } = heldTransport();
    const round = roundOf(concurrency, ask);

    const first = round([capped], "10.0.0.1");
    expect(concurrency.inFlight("ext_capped")).toBe(1);
    // Its only slot is taken: the next round asks the other solver only and lists the capped one as busy.
    const second = round([capped, other], "10.0.0.2");
    expect(asked).toEqual(["ext_capped", "ext_other"]);
    releaseAll();
    const { results, busy } = await second;
    expect(ids(results.map((r) => r.participant))).toEqual(["ext_other"]);
    expect(ids(busy)).toEqual(["ext_capped"]);
    expect(ids((await first).results.map((r) => r.participant))).toEqual(["ext_capped"]);
    expect(concurrency.inFlight("ext_capped")).toBe(0);
    const third = round([capped, other], "10.0.0.2");
    releaseAll();
    expect((await third).busy).toEqual([]);
    expect(concurrency.inFlight("ext_other")).toBe(0);
  });

  it("lets one client hold at most its share of a solver's slots; another client still gets the rest", async () => {
    const concurrency = new SolverConcurrency({ clientShare: 0.5 });
    const solver: Solver = {
      ...solverAt("ext_shared", "http://127.0.0.1:9", addr(0xf5)),
      maxConcurrentRequests: 4,
    };
    const { asked, ask, releaseAll } = heldTransport();
    const round = roundOf(concurrency, ask);

    // A flood from one client: 10 rounds at once, only 2 (half of 4) are asked.
    const flood = Array.from({ length: 10 }, () => round([solver], "10.0.0.66"));
    expect(asked).toHaveLength(2);
    expect(concurrency.inFlight("ext_shared", "10.0.0.66")).toBe(2);
    // Two other clients get the other two slots; a third finds the solver full.
    const honest = [round([solver], "10.0.0.7"), round([solver], "10.0.0.8"), round([solver], "10.0.0.9")];
    expect(asked).toHaveLength(4);
    releaseAll();
    const floodRounds = await Promise.all(flood);
    expect(floodRounds.filter((r) => r.results.length === 1)).toHaveLength(2);
    expect(floodRounds.filter((r) => r.busy.length === 1)).toHaveLength(8);
    expect((await Promise.all(honest)).map((r) => r.results.length)).toEqual([1, 1, 0]);
    expect(concurrency.inFlight("ext_shared")).toBe(0);
  });

  it("gives a client at least one slot, and refuses a share outside (0, 1]", () => {
    expect(new SolverConcurrency({ clientShare: 0.5 }).clientLimit(1)).toBe(1);
    expect(new SolverConcurrency({ clientShare: 0.5 }).clientLimit(32)).toBe(16);
    expect(new SolverConcurrency({ clientShare: 1 }).clientLimit(32)).toBe(32);
    expect(() => new SolverConcurrency({ clientShare: 0 })).toThrow(RangeError);
    expect(() => new SolverConcurrency({ clientShare: 1.5 })).toThrow(RangeError);
  });
});

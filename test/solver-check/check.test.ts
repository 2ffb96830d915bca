// `sluice solver check` against solvers on a running devnet: the bundled reference solver, a correct one, passes
// with exit 0; four broken solvers of the test's own (a wrong echo, a wrong filler, too slow, bad JSON) and one that
// promises more than its legs pay are each named with what to do, and exit 1.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import type { SolverCheckReport } from "../../src/solver-check/check.ts";
import type { SolverQuoteRequest } from "../../src/solvers/protocol.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { runSluice } from "../support/cli.ts";
import { type SolverBehaviour, startScriptedSolver } from "../support/solver-server.ts";

/** What the request's leg for its output token pays at its rate, less a little (a quote that can be filled). */
function fair(request: SolverQuoteRequest): bigint {
  const leg = request.adapters.find((candidate) => candidate.asset === request.tokenOut)!;
  return (
    (((BigInt(request.amount) * BigInt(leg.maxRate) * 10n ** BigInt(leg.assetDecimals)) / 10n ** 36n) * 99n) /
    100n
  );
}

describe("sluice solver check", () => {
  const dir = temporaryDataDir();
  let devnet: DevnetSluice;
  let executor: string;
  beforeAll(async () => {
    devnet = await startTestDevnet(dir.path);
    executor = devnet.chain.core.executors[1]!;
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dir.remove();
  });

  async function check(endpoint: string, secret: string, extra: string[] = []) {
    const run = await runSluice(
      ["solver", "check", "--endpoint", endpoint, "--secret", secret, "--requests", "2", "--json", ...extra],
      { DATA_DIR: dir.path },
    );
    expect(run.stderr).toBe("");
    return { code: run.code, report: JSON.parse(run.stdout) as SolverCheckReport };
  }

  async function checkBroken(behaviour: SolverBehaviour) {
    const solver = await startScriptedSolver(behaviour);
    try {
      return await check(solver.url, "a-secret", ["--filler", executor]);
    } finally {
      await solver.close();
    }
  }

  const codes = (report: SolverCheckReport, severity: "problem" | "warning") =>
    report.findings.filter((entry) => entry.severity === severity).map((entry) => entry.code);

  it("reports no problem for a correct solver (the bundled reference solver), and exits 0", async () => {
    const beta = devnet.bundled.deployment.solvers.find((solver) => solver.id === "sluice_beta")!;
    const { code, report } = await check(beta.endpoint, devnet.bundled.solverSecrets.get("sluice_beta")!, [
      "--caller",
      devnet.chain.accounts.solvers[1]!.account.address,
    ]);
    // A loaded machine may slow its answers past half the timeout: a warning, never a problem.
    expect(report.findings.filter((entry) => entry.code !== "slow")).toEqual([]);
    expect(code).toBe(0);
    // The venue's own pairs (tRWA to tUSD and tUSDT), every request quoted, the Executor named and found.
    expect(report.pairs.map((pair) => [pair.tokenIn, pair.tokenOut, pair.quoted])).toEqual([
      ["tRWA", "tUSD", 2],
      ["tRWA", "tUSDT", 2],
    ]);
    expect(report.filler).toEqual({ address: executor, source: "answer", solverId: "sluice_beta" });
    expect(report.latency).toEqual({ p50: expect.any(Number), p99: expect.any(Number) });
  });

  it("names a wrong echo", async () => {
    const { code, report } = await checkBroken({
      kind: "quote",
      filler: executor,
      amountOut: fair,
      echo: { quoteId: randomUUID() },
    });
    expect(codes(report, "problem")).toEqual(["echo_mismatch"]);
    expect(report.findings[0]).toMatchObject({
      message: expect.stringMatching(/^4 of 4 requests: quoteId differs from the request/),
      fix: expect.stringMatching(/Echo chainId .* exactly as the request sent them/),
    });
    // The scripted solver answers whatever secret it is sent.
    expect(codes(report, "warning")).toContain("secret_not_checked");
    expect(code).toBe(1);
  });

  it("names a wrong filler", async () => {
    const other = devnet.chain.core.executors[0]!;
    const { code, report } = await checkBroken({ kind: "quote", filler: other, amountOut: fair });
    expect(codes(report, "problem")).toEqual(["wrong_filler"]);
    expect(report.findings[0]!.message).toContain(`filler ${other} is not ${executor}`);
    expect(code).toBe(1);
  });

  it("names a solver too slow for the venue's timeout", async () => {
    const { code, report } = await checkBroken({
      kind: "quote",
      filler: executor,
      amountOut: fair,
      delayMs: 1500,
    });
    expect(codes(report, "problem")).toEqual(["timeout"]);
    expect(report.findings[0]!.message).toMatch(/^4 of 4 requests: no answer within the venue's 1000 ms/);
    expect(code).toBe(1);
  });

  it("names an answer that is not JSON", async () => {
    const { code, report } = await checkBroken({ kind: "garbage", body: "{quote: 12" });
    expect(codes(report, "problem")).toEqual(["invalid_body"]);
    expect(report.findings[0]!.message).toMatch(/not JSON/);
    expect(code).toBe(1);
  });

  it("names a quote above what the legs offered can pay", async () => {
    const { code, report } = await checkBroken({
      kind: "quote",
      filler: executor,
      amountOut: (request) => fair(request) * 2n,
    });
    expect(codes(report, "problem")).toEqual(["amount_above_legs"]);
    expect(code).toBe(1);
  });
});

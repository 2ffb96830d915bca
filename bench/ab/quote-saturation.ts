// An A/B run of two builds: /quote throughput at saturation (16 closed-loop connections, 10 s after 2 s of warm-up)
// on this checkout's build and on another checkout's (BASELINE_ROOT, `npm ci` run there), alternating three times,
// each on a fresh PostgreSQL database, against the swap suite's fixture (anvil, six solver servers answering after
// 5–50 ms). Used for issue 15's "with vs without the aggregates": the baseline is the build just before them.
//   BASELINE_ROOT=/path/to/checkout npx tsx bench/ab/quote-saturation.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchChain } from "../lib/bench-chain.ts";
import { ownDatabase } from "../lib/bench-databases.ts";
import { runClosedLoop } from "../lib/closed-loop.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import { quoteBody, SWAP_SOLVER_COUNT, startFixture } from "../suites/swap.ts";

const baseline = process.env.BASELINE_ROOT;
if (!baseline) throw new Error("set BASELINE_ROOT to the other checkout (with `npm ci` run in it)");
const builds = { this: fileURLToPath(new URL("../..", import.meta.url)), baseline };
const ROUNDS = 3;

const scratch = mkdtempSync(join(tmpdir(), "sluice-ab-"));
const chain = await startBenchChain({ executors: SWAP_SOLVER_COUNT });
const fixture = await startFixture(chain, scratch);
const body = quoteBody(chain);
const perSecond: Record<keyof typeof builds, number[]> = { this: [], baseline: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order: Array<keyof typeof builds> = round % 2 ? ["baseline", "this"] : ["this", "baseline"];
    for (const build of order) {
      const database = ownDatabase("postgres", "ab");
      await database.reset();
      // Created empty: each build migrates it with its own migrations.
      await (await database.openUnmigrated()).close();
      process.env.BENCH_SLUICE_ROOT = builds[build];
      const server = await serveDeployment(
        database,
        fixture.deployment,
        join(scratch, `${build}-${round}.log`),
      );
      try {
        const url = `${server.baseUrl}/quote`;
        await runClosedLoop({ url, method: "POST", body, connections: 16, durationSeconds: 2 });
        const run = await runClosedLoop({ url, method: "POST", body, connections: 16, durationSeconds: 10 });
        const ok = run.requests.filter((request) => request.status === 200).length;
        perSecond[build].push(ok / 10);
        console.log(
          `${build} (round ${round + 1}): ${(ok / 10).toFixed(1)} /quote per s, ${run.errors} errors`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [a, b] = [mean(perSecond.this), mean(perSecond.baseline)];
  console.log(
    `this build ${a.toFixed(1)} /s, baseline ${b.toFixed(1)} /s: ${(((a - b) / b) * 100).toFixed(1)} %`,
  );
} finally {
  delete process.env.BENCH_SLUICE_ROOT;
  await fixture.solvers.stop();
  await chain.stop();
  rmSync(scratch, { recursive: true, force: true });
}

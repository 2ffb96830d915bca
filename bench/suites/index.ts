// Every suite `npm run bench -- --suite <name>` can run. A new suite is a module in this folder exporting a
// BenchSuite, added here.
import { limitsSuite } from "./limits.ts";
import { liquiditySuite } from "./liquidity.ts";
import { ordersSuite } from "./orders.ts";
import { overheadSuite } from "./overhead.ts";
import { partnerSuite } from "./partner.ts";
import { pointsEngineSuite } from "./points-engine.ts";
import { pointsLiveSuite } from "./points-live.ts";
import { solversSuite } from "./solvers.ts";
import { streamSuite } from "./stream.ts";
import { swapSuite } from "./swap.ts";
import { fillLatencySuite } from "./swap-fill-latency.ts";
import type { BenchSuite } from "./types.ts";

export const SUITES: readonly BenchSuite[] = [
  partnerSuite,
  swapSuite,
  fillLatencySuite,
  ordersSuite,
  liquiditySuite,
  streamSuite,
  solversSuite,
  limitsSuite,
  overheadSuite,
  pointsEngineSuite,
  pointsLiveSuite,
];

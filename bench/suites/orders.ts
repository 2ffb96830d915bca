// The orders suite: GET /orders on 1,000,000 stored orders (PostgreSQL, and PGlite alongside: the same dataset
// unless --pglite-scale asks for a stated fraction). `sluice serve` runs a deployment file with six solvers (none
// is asked anything) on a bare anvil; the bench loads a solver's open orders and a 50-order swapper's list with
// autocannon beside the bare Fastify route and plain Fastify sending the same bytes, then downloads the whole
// `orderStatus=filled` list once while sampling the server's RSS. See bench/README.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OrdersDatasetFacts } from "../dataset/orders-dataset.ts";
import { executorOf, FULL_ORDERS_PLAN, ORDERS_ADDRESSES, solverIdOf } from "../dataset/orders-plan.ts";
import { type BenchDatabaseKind, ordersDatabase } from "../dataset/store.ts";
import { type BenchChain, startBenchChain } from "../lib/bench-chain.ts";
import { cpuDuring, processCpuMs } from "../lib/cpu.ts";
import { fetchBody } from "../lib/http.ts";
import { loadAverage } from "../lib/machine.ts";
import { meanRequestsPerSecond, measureLoad } from "../lib/measured-load.ts";
import { openBackendProbe } from "../lib/pg-backends.ts";
import { type RunningProcess, rssMb, startBare } from "../lib/processes.ts";
import { writeDeployment } from "../lib/sluice-deployment.ts";
import { serveDeployment } from "../lib/sluice-server.ts";
import { downloadStream } from "../lib/stream-download.ts";
import { runConditions } from "../lib/suite-report.ts";
import { ensureOrdersDataset } from "./orders-dataset.ts";
import { diagnoseFilledPage, type PageDiagnosis } from "./orders-diagnosis.ts";
import {
  formatOrdersReport,
  judgeOrdersTargets,
  type OrdersDatabaseRun,
  type OrdersReport,
  type OrdersRouteMeasurement,
  type OrdersRouteRole,
} from "./orders-report.ts";
import type { BenchSuite, SuiteOptions } from "./types.ts";

const WARMUP_SECONDS = 2;
/** The solver whose open orders are listed. */
const LISTED_SOLVER = 2;
/** The filled list's download gives up after this long (reported as incomplete), so the suite's time is bounded. */
const DOWNLOAD_BUDGET_SECONDS = 150;

export const ordersSuite: BenchSuite = {
  name: "orders",
  description:
    "GET /orders on 1,000,000 orders: a solver's open orders and a 50-order swapper vs bare Fastify, and the " +
    "whole filled list streamed (MB/s, server RSS)",
  async run(options) {
    const startedAt = new Date().toISOString();
    const loadAtStart = loadAverage();
    const scratch = mkdtempSync(join(tmpdir(), "sluice-bench-orders-"));
    let chain: BenchChain | undefined;
    try {
      // No contract is needed: no solver is asked, and the indexer's reads of the open orders' tokens find no
      // code and leave the orders as they are.
      log("starting anvil (nothing deployed, no block time)");
      chain = await startBenchChain({ executors: 0 });
      const runs: OrdersDatabaseRun[] = [];
      for (const kind of options.databases) runs.push(await runOnDatabase(kind, options, chain, scratch));
      const report: OrdersReport = {
        suite: "orders",
        ...runConditions(startedAt, loadAtStart, loadAverage()),
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: WARMUP_SECONDS,
        runs,
      };
      return { text: formatOrdersReport(report), json: report };
    } finally {
      await chain?.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

async function runOnDatabase(
  kind: BenchDatabaseKind,
  options: SuiteOptions,
  chain: BenchChain,
  scratch: string,
): Promise<OrdersDatabaseRun> {
  log(`${kind}: ensuring the dataset`);
  // The full million loads into PGlite too (about two minutes); --pglite-scale loads a fraction.
  const scale = kind === "pglite" ? options.pgliteScale : 1;
  const dataset = await ensureOrdersDataset(kind, { regenerate: options.regenerate, scale });
  const database = ordersDatabase(kind);
  const version = await database.version();
  await bindToChain(kind, chain);
  const deployment = writeDeployment(scratch, deploymentInput(chain), { chain });
  log(`${kind}: starting sluice serve on ${database.location}`);
  const sluice = await serveDeployment(database, deployment, join(scratch, `server-${kind}.log`));
  const serverPid = sluice.child.pid!;
  const serverIdleRssMb = rssMb(serverPid);
  const backends = kind === "postgres" ? await openBackendProbe(database.serveEnv.DATABASE_URL!) : undefined;
  let bare: RunningProcess | undefined;
  try {
    const routes = ordersRoutes(dataset);
    const bodies = new Map<OrdersRouteRole, Buffer>();
    for (const route of routes) bodies.set(route.role, await checkRoute(sluice.baseUrl, route));
    // The second baseline answers a byte-identical copy of the solver's open orders: what plain Fastify does with
    // a body of that size on the same cores, so the route's gap to it is the route's own work.
    const sameBytesFile = join(scratch, `open-by-solver-${kind}.json`);
    writeFileSync(sameBytesFile, bodies.get("open-by-solver")!);
    bare = await startBare({ bodyFile: sameBytesFile });

    const measure = async (
      role: OrdersRouteRole,
      label: string,
      url: string,
      pid: number,
      bodyBytes: number,
    ): Promise<OrdersRouteMeasurement> => {
      log(`${kind}: ${label} (${options.connections} connections, ${options.durationSeconds} s)`);
      const { result, use } = await measureLoad(
        { url, connections: options.connections },
        {
          warmupSeconds: WARMUP_SECONDS,
          durationSeconds: options.durationSeconds,
          pid,
          backends: pid === serverPid ? backends : undefined,
        },
      );
      return {
        ...result,
        role,
        label,
        path: url.slice(url.indexOf("/", "http://".length)),
        bodyBytes,
        ...use,
      };
    };
    const barePid = bare.child.pid!;
    const bareUrl = `${bare.baseUrl}/bare`;
    const bareBytes = (await fetchBody(bareUrl)).body.length;
    const runBare = () => measure("bare", "bare Fastify /bare", bareUrl, barePid, bareBytes);
    const runSameBytes = () =>
      measure(
        "bare-body",
        "bare Fastify, same bytes as the open orders",
        `${bare!.baseUrl}/body`,
        barePid,
        bodies.get("open-by-solver")!.length,
      );

    const measured: OrdersRouteMeasurement[] = [await runBare(), await runSameBytes()];
    for (const route of routes.filter((r) => r.role !== "filled")) {
      measured.push(
        await measure(
          route.role,
          route.label,
          `${sluice.baseUrl}${route.path}`,
          serverPid,
          bodies.get(route.role)!.length,
        ),
      );
    }

    const filledRoute = routes.find((r) => r.role === "filled")!;
    log(`${kind}: downloading ${filledRoute.label} once`);
    const loadBeforeDownload = loadAverage();
    const serverCpuBefore = processCpuMs(serverPid);
    const { result: download, cpuMs: databaseCpuMs } = await cpuDuring(
      async () => (backends ? backends.pids() : []),
      () =>
        downloadStream(`${sluice.baseUrl}${filledRoute.path}`, {
          marker: '"orderId":',
          pid: serverPid,
          maxMs: DOWNLOAD_BUDGET_SECONDS * 1000,
        }),
    );
    const downloadServerCpuMs = processCpuMs(serverPid) - serverCpuBefore;

    measured.push(await runBare(), await runSameBytes());
    const runsOf = (role: OrdersRouteRole) => measured.filter((row) => row.role === role);
    const bareRequestsPerSecond = meanRequestsPerSecond(runsOf("bare"));
    const sameBytesRequestsPerSecond = meanRequestsPerSecond(runsOf("bare-body"));
    for (const row of measured) {
      if (row.role === "bare" || row.role === "bare-body") continue;
      row.ratioToBare = row.requestsPerSecond / bareRequestsPerSecond;
      if (row.role === "open-by-solver")
        row.ratioToSameBytes = row.requestsPerSecond / sameBytesRequestsPerSecond;
    }
    const run: Omit<OrdersDatabaseRun, "targets" | "diagnosis"> = {
      kind,
      databaseVersion: version,
      dataset,
      scale,
      fixtures: {
        solverId: solverIdOf(LISTED_SOLVER),
        swapper: ORDERS_ADDRESSES.fixtureSwapper,
      },
      serverIdleRssMb,
      bareRequestsPerSecond,
      sameBytesRequestsPerSecond,
      routes: measured,
      filled: {
        label: filledRoute.label,
        path: filledRoute.path,
        expectedOrders: dataset.byStatus.filled ?? 0,
        ...download,
        budgetSeconds: DOWNLOAD_BUDGET_SECONDS,
        serverCpuMs: downloadServerCpuMs,
        databaseCpuMs: backends ? databaseCpuMs : undefined,
        loadAverage: loadBeforeDownload,
      },
    };
    await backends?.close();
    await sluice.stop();
    log(`${kind}: explaining one page of the filled list`);
    const diagnosis = await diagnoseDatabase(kind);
    return { ...run, diagnosis, targets: judgeOrdersTargets(run) };
  } finally {
    await bare?.stop();
    await backends?.close();
    await sluice.stop();
  }
}

/** Run once the server is gone: PGlite is a single connection inside the server's process. */
async function diagnoseDatabase(kind: BenchDatabaseKind): Promise<PageDiagnosis> {
  const database = await ordersDatabase(kind).openUnmigrated();
  try {
    return await diagnoseFilledPage(database);
  } finally {
    await database.close();
  }
}

interface OrdersRoute {
  role: Exclude<OrdersRouteRole, "bare" | "bare-body">;
  label: string;
  path: string;
  /** Orders the answer must hold; undefined for the streamed list (checked when it is downloaded). */
  expectedOrders?: number;
}

function ordersRoutes(dataset: OrdersDatasetFacts): OrdersRoute[] {
  const solverId = solverIdOf(LISTED_SOLVER);
  return [
    {
      role: "open-by-solver",
      label: `/orders?solverId={s}&orderStatus=open (${dataset.openBySolver[solverId] ?? 0} orders)`,
      path: `/orders?solverId=${solverId}&orderStatus=open`,
      expectedOrders: dataset.openBySolver[solverId] ?? 0,
    },
    {
      role: "swapper",
      label: `/orders?swapper={a} (${dataset.fixtureSwapper.orders} orders)`,
      path: `/orders?swapper=${dataset.fixtureSwapper.address}`,
      expectedOrders: dataset.fixtureSwapper.orders,
    },
    {
      role: "filled",
      label: `/orders?orderStatus=filled (${(dataset.byStatus.filled ?? 0).toLocaleString("en")} orders, streamed)`,
      path: "/orders?orderStatus=filled",
    },
  ];
}

/**
 * One request: must answer 200 with the expected number of orders (and, for a solver, its execution fields).
 * Returns the body (empty for the streamed list, checked when it is downloaded).
 */
async function checkRoute(baseUrl: string, route: OrdersRoute): Promise<Buffer> {
  if (route.expectedOrders === undefined) return Buffer.alloc(0);
  const fetched = await fetchBody(`${baseUrl}${route.path}`);
  const body = JSON.parse(fetched.body.toString("utf8")) as { orders?: Array<Record<string, unknown>> };
  const orders = body.orders ?? [];
  const complete = route.role !== "open-by-solver" || orders.every((order) => "encodedOrder" in order);
  if (fetched.status !== 200 || orders.length !== route.expectedOrders || !complete) {
    throw new Error(
      `${route.path} answered ${fetched.status} with ${orders.length} orders (want ${route.expectedOrders}` +
        `${complete ? "" : ", with execution fields"}): ${fetched.body.subarray(0, 300).toString()}`,
    );
  }
  return fetched.body;
}

/**
 * The stored orders belong to no real chain. The server resets every chain-bound table (orders included) when the
 * stored chain identity is not its RPC's, and each run's anvil has a new genesis: so the identity is set to this
 * run's chain first, and the previous run's indexer progress is cleared.
 */
async function bindToChain(kind: BenchDatabaseKind, chain: BenchChain): Promise<void> {
  const database = await ordersDatabase(kind).openUnmigrated();
  try {
    await database.query(
      `insert into chain_identity (id, chain_id, genesis_hash) values (1, $1, $2)
       on conflict (id) do update set chain_id = excluded.chain_id, genesis_hash = excluded.genesis_hash`,
      [chain.chainId, chain.genesisHash],
    );
    await database.query("delete from indexed_blocks");
    await database.query("delete from order_funding_streaks");
  } finally {
    await database.close();
  }
}

function deploymentInput(chain: BenchChain) {
  const solvers = Array.from({ length: FULL_ORDERS_PLAN.solvers }, (_, index) => ({
    id: solverIdOf(index),
    // Never called: nothing here quotes.
    endpoint: "http://127.0.0.1:9",
    filler: executorOf(index),
    internal: index % 2 === 0,
  }));
  return {
    name: "bench-orders",
    chainId: chain.chainId,
    chainName: "anvil (bench, nothing deployed)",
    local: true,
    reactor: ORDERS_ADDRESSES.reactor,
    executors: solvers.map((solver) => solver.filler),
    adapterFactory: ORDERS_ADDRESSES.adapterFactory,
    protocolSigner: chain.protocolSigner.account.address.toLowerCase(),
    inputTokens: [
      {
        address: ORDERS_ADDRESSES.tokenIn,
        symbol: "tRWA",
        name: "Sluice Test RWA",
        decimals: 18,
        minQuoteAmount: "1000000000000",
      },
    ],
    outputTokens: [
      { address: ORDERS_ADDRESSES.tokenOut, symbol: "tUSD", name: "Sluice Test USD", decimals: 6 },
    ],
    adapters: [],
    solvers,
    confirmationDepth: 0,
    startBlock: 0,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench orders] ${message}\n`);
}

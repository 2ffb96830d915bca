// The partner suite's printed report (Markdown, pasted as is into bench/README.md): the machine and its
// load, the load generator's settings, the dataset and fixtures, one table per database, and the targets.
import { type BenchDatabaseKind, benchDatabase } from "../dataset/store.ts";
import { machineLine, ratioColumn, routeTable, targetsTable } from "../lib/suite-report.ts";
import { formatNumber } from "../lib/table.ts";
import type { DatabaseRun, PartnerReport } from "./partner.ts";

/** What the report names the database: its server's version and where it is. */
export function databaseVersion(kind: BenchDatabaseKind): Promise<string> {
  return benchDatabase(kind).version();
}

export function formatPartnerReport(report: PartnerReport): string {
  const { options } = report;
  const lines = [
    `## Partner API benchmark, ${report.startedAt}`,
    "",
    machineLine(report),
    "",
    `Load: autocannon in the bench process, ${options.connections} connections ` +
      `(the large vault's list: ${options.largeVaultConnections}), ${options.durationSeconds} s per route after ` +
      `${options.warmupSeconds} s of unmeasured warm-up, plain GETs without Accept-Encoding (identity bodies). ` +
      "Server: `sluice serve` in its own process (no DEPLOYMENT: the devnet, whose anvil is a separate process " +
      "and not in the RSS figures; SLUICE_DEMO_DATA=0; request logs at info, one line per request, written to a file). Baselines: bare Fastify " +
      "in a third process, measured before and after the routes; ratios divide by the mean of the two.",
    "",
  ];
  for (const run of report.runs) lines.push(...formatRun(run, options.pgliteScale), "");
  lines.push(
    "How to read the baselines: the targets are stated against the small bare route (`/bare`, a tiny JSON " +
      "object), as the issue words them. The same-bytes route is plain Fastify sending a byte-identical copy of " +
      "the `/entities/vaults` body: at that size a request's cost is mostly moving the body through the sockets " +
      "and autocannon's parser on the same cores, so `× same bytes` shows how far the registry route is from " +
      "what any Fastify server can do with that body.",
  );
  return lines.join("\n");
}

function formatRun(run: DatabaseRun, pgliteScale: number): string[] {
  const { dataset } = run;
  const types = dataset.pointsTypes
    .map((type) => `${type.name} (${type.decimals} decimals, current ${formatNumber(type.currentRows)} rows)`)
    .join(", ");
  return [
    `### ${run.databaseVersion}`,
    "",
    ...(run.kind === "pglite" && pgliteScale < 1
      ? [`**Smaller dataset than PostgreSQL's: scaled by --pglite-scale ${pgliteScale}.**`, ""]
      : []),
    `Dataset: the real registry (${dataset.registry.vaults} vaults, ${dataset.registry.approvedVaults} approved ` +
      `by the generated overlay; ${dataset.registry.networks} networks, ${dataset.registry.operators} operators); ` +
      `points types ${types}; ${formatNumber(dataset.snapshots)} snapshots: ${formatNumber(dataset.historicalSnapshots)} ` +
      `historical of up to ${dataset.historicalRowsEach} rows each plus the current ones. The current sluice ` +
      `snapshot has ${formatNumber(dataset.currentRows)} receiver rows over ${dataset.vaultsWithPoints} vaults, skewed ` +
      `(largest ${formatNumber(dataset.largeVault.receivers)}, median ${formatNumber(dataset.medianVault.receivers)}). ` +
      `Generated in ${dataset.generationSeconds} s (reused while its marker matches).`,
    "",
    `Fixtures: large vault \`${dataset.largeVault.address}\`, median vault \`${dataset.medianVault.address}\`, ` +
      `receiver \`${dataset.receiver.address}\` (in ${dataset.receiver.vaults.length} vaults, all three types), ` +
      `totals block ${dataset.totalsBlock} (no snapshot there: the nearest of each type is used).`,
    "",
    ...routeTable(run.routes, {
      // The large vault's list runs at its own connections and answers about one request a second.
      connections: (row) => row.connections,
      requestsPerSecondDigits: (requestsPerSecond) => (requestsPerSecond < 10 ? 2 : 0),
      ratios: [
        ratioColumn("× bare", (row) => row.ratioToBare, 2),
        ratioColumn("× same bytes", (row) => row.ratioToSameBody, 2),
      ],
      throughput: true,
    }),
    "",
    `Baselines: \`/bare\` ${formatNumber(run.bareRequestsPerSecond)} req/s, same bytes ` +
      `${formatNumber(run.sameBodyRequestsPerSecond)} req/s (means of the first and last runs). RSS of baseline rows ` +
      `is the baseline process's; of every other row, the server's. Server RSS: ${formatNumber(run.serverIdleRssMb)} MB ` +
      `idle, ${formatNumber(run.serverPeakRssMb)} MB peak over the whole run${memoryBreakdown(run)}.`,
    "",
    `Targets${run.kind === "postgres" ? " (the issue's, judged on PostgreSQL)" : " (stated for PostgreSQL; shown here for comparison)"}:`,
    "",
    targetsTable(run.targets),
  ];
}

function memoryBreakdown(run: DatabaseRun): string {
  const memory = run.serverMemoryAtEnd;
  if (!memory) return "";
  const rest = memory.rssMb - memory.heapTotalMb - memory.externalMb;
  return (
    `; after the last route its /metrics said RSS ${formatNumber(memory.rssMb)} MB = V8 heap ` +
    `${formatNumber(memory.heapTotalMb)} MB (${formatNumber(memory.heapUsedMb)} MB used) + external ` +
    `${formatNumber(memory.externalMb)} MB + ${formatNumber(rest)} MB of code, loader thread and allocator`
  );
}

// The acceptance targets, judged from one run's measurements. They are stated for PostgreSQL; the
// same checks are shown for PGlite for comparison only.
import type { Verdict } from "../lib/suite-report.ts";
import { formatBytes } from "../lib/table.ts";
import type { DatabaseRun, RouteMeasurement, RouteRole } from "./partner.ts";

export const TARGETS = {
  registryRatio: 0.6,
  pointsRatio: 0.3,
  pointsP99Ms: 20,
  serverRssMb: 300,
  /** A buffered answer needs at least its body in memory; a streamed one grows by far less. */
  streamedGrowthOfBody: 0.5,
  streamedFirstByteShare: 0.25,
} as const;

export function judgePartnerTargets(run: Omit<DatabaseRun, "targets">): Verdict[] {
  const route = (role: RouteRole): RouteMeasurement => {
    const found = run.routes.find((row) => row.role === role);
    if (!found) throw new Error(`no measurement of ${role}`);
    return found;
  };
  const ratio = (row: RouteMeasurement) => row.ratioToBare ?? 0;
  const clean = (row: RouteMeasurement) => row.non2xx === 0 && row.errors === 0;
  const verdicts: Verdict[] = [];

  // Judged on the identity answer, as the load generator asks. The compressed row is reported beside it
  // but not judged: autocannon appends every body chunk to a string, and a compressed (binary) body takes V8's
  // slow UTF-8 path there, so that row measures the load generator more than the server (bench/README.md).
  const registry = route("registry");
  const sameBytesShare = run.sameBodyRequestsPerSecond / run.bareRequestsPerSecond;
  verdicts.push({
    target: `/entities/vaults ≥ ${TARGETS.registryRatio} × bare /bare req/s`,
    measured:
      `${ratio(registry).toFixed(2)} × (${(registry.ratioToSameBody ?? 0).toFixed(2)} × plain Fastify sending the ` +
      `same ${formatBytes(registry.bodyBytes)}, which itself does ${sameBytesShare.toFixed(2)} × bare)`,
    pass: clean(registry) && ratio(registry) >= TARGETS.registryRatio,
  });
  for (const role of ["receiver", "total"] as const) {
    const row = route(role);
    verdicts.push({
      target: `${row.label} ≥ ${TARGETS.pointsRatio} × bare req/s, p99 < ${TARGETS.pointsP99Ms} ms`,
      measured: `${ratio(row).toFixed(2)} ×, p99 ${row.p99Ms === 0 ? "<1" : row.p99Ms} ms`,
      pass: clean(row) && ratio(row) >= TARGETS.pointsRatio && row.p99Ms < TARGETS.pointsP99Ms,
    });
  }
  const large = route("vault-large");
  // Streamed: the first bytes leave long before the last (a buffered answer sends nothing until it is built).
  verdicts.push({
    target: `large vault list streamed (first byte before ${TARGETS.streamedFirstByteShare * 100}% of the answer's time)`,
    measured: `first byte after ${large.firstByteMs.toFixed(0)} ms, last after ${large.lastByteMs.toFixed(0)} ms`,
    pass: large.firstByteMs < TARGETS.streamedFirstByteShare * large.lastByteMs,
  });
  const growthMb = large.rssPeakMb - large.rssStartMb;
  const bodyMb = large.bodyBytes / 1e6;
  const streamedMb = (large.total * large.bodyBytes) / 1e6;
  verdicts.push({
    target: `… with flat memory (server RSS growth during the run < ${TARGETS.streamedGrowthOfBody} × one body)`,
    measured:
      `RSS ${large.rssStartMb.toFixed(0)} → peak ${large.rssPeakMb.toFixed(0)} MB (+${growthMb.toFixed(0)} MB) ` +
      `for a ${bodyMb.toFixed(1)} MB body; ${large.total} answers, ${streamedMb.toFixed(0)} MB in ` +
      `${large.durationSeconds} s at ${large.throughputMBps.toFixed(1)} MB/s`,
    pass: clean(large) && large.total > 0 && growthMb < TARGETS.streamedGrowthOfBody * bodyMb,
  });
  verdicts.push({
    target: `server memory < ${TARGETS.serverRssMb} MB`,
    measured: `peak RSS ${run.serverPeakRssMb.toFixed(0)} MB (idle ${run.serverIdleRssMb.toFixed(0)} MB)`,
    pass: run.serverPeakRssMb < TARGETS.serverRssMb,
  });
  return verdicts;
}

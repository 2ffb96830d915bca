// The check's report as a person reads it: what was asked and answered per token pair, the latency against the
// venue's timeout, the Executor, then every finding with what to do.
import type { SolverCheckReport } from "./check.ts";

export function reportText(report: SolverCheckReport): string {
  const lines = [
    `Solver ${report.endpoint} against ${report.venue.name} (chain ${report.venue.chainId}), timeout ${report.timeoutMs} ms`,
    "",
  ];
  for (const pair of report.pairs) {
    const rejected = Object.entries(pair.rejected)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(", ");
    const latency = pair.latency ? `p50 ${pair.latency.p50} ms, p99 ${pair.latency.p99} ms` : "no answer";
    lines.push(
      `  ${pair.tokenIn} → ${pair.tokenOut}: ${pair.requests} requests, ${pair.quoted} quoted, ${pair.declined} declined` +
        `${rejected ? `, rejected: ${rejected}` : ""}; ${latency}` +
        (pair.offeredByVenue ? "" : " (legs of every usable adapter: the venue offers you none yet)"),
    );
  }
  const latency = report.latency;
  lines.push(
    "",
    latency
      ? `  latency: p50 ${latency.p50} ms, p99 ${latency.p99} ms of the venue's ${report.timeoutMs} ms`
      : "  latency: no answer came back",
    report.filler
      ? `  filler: ${report.filler.address} (${report.filler.source === "option" ? "--filler" : "named by its first answer"})` +
          (report.filler.solverId ? `, the venue's solver ${report.filler.solverId}` : "")
      : "  filler: none (no quote named one, no --filler): nothing checked on chain",
    "",
  );
  const problems = report.findings.filter((entry) => entry.severity === "problem");
  const warnings = report.findings.filter((entry) => entry.severity === "warning");
  for (const [title, entries] of [
    ["Problems", problems],
    ["Warnings", warnings],
  ] as const) {
    if (entries.length === 0) continue;
    lines.push(`${title}:`);
    for (const entry of entries) lines.push(`  ✗ ${entry.code}: ${entry.message}`, `    → ${entry.fix}`);
    lines.push("");
  }
  lines.push(
    problems.length === 0
      ? `No problems found${warnings.length ? ` (${warnings.length} warning${warnings.length > 1 ? "s" : ""})` : ""}.`
      : `${problems.length} problem${problems.length > 1 ? "s" : ""} found.`,
    "",
  );
  return lines.join("\n");
}

// The fill-latency suite's measurements, its targets (issue 25: from the fill's block on the chain to the wallet's
// `filled` event on its order stream) and its printed report. Every figure is a difference of two epoch-ms stamps
// on the bench's clock, and its row names both ends.
import type { BenchDatabaseKind } from "../dataset/store.ts";
import { type Distribution, distribution } from "../lib/distribution.ts";
import { machineLine, type RunConditions, targetsSection, type Verdict } from "../lib/suite-report.ts";
import { formatNumber, markdownTable } from "../lib/table.ts";

/** Block seen over newHeads → the wallet's `filled` event. */
export const FILL_TARGETS = {
  websocket: { p50Ms: 50, p99Ms: 150 },
  replica: { p99Ms: 200 },
  polling: { p99Ms: 400 },
} as const;

/** How the server under test learns of new heads. */
export type HeadsMode = "websocket" | "polling";

export interface FillSample {
  orderId: string;
  solverId: string;
  /** POST /order answered. */
  submittedAt: number;
  fillBlock: number | null;
  /** The fill block's timestamp (whole seconds on anvil), in ms. */
  blockTimestampMs: number | null;
  /** The bench's newHeads (WebSocket) watcher received the fill block. */
  headSeenAt: number | null;
  /** The bench's eth_blockNumber poller first saw the fill block (or a later one). */
  polledSeenAt: number | null;
  /** The `filled` event arrived on replica A's stream (the devnet, whose indexer writes the fill); null: missed. */
  filledOnA: number | null;
  /** The same on replica B's stream (same database, learns of the fill by NOTIFY); null: missed or no B. */
  filledOnB: number | null;
}

export interface FillLatencyRun {
  kind: BenchDatabaseKind;
  databaseVersion: string;
  heads: HeadsMode;
  /** What the devnet was started with beyond the suite's defaults. */
  env: Record<string, string>;
  replica: boolean;
  startupSeconds: number;
  blockIntervalMs: number;
  fills: FillSample[];
  loadAverage: { start: number; end: number };
  targets: Verdict[];
}

export interface FillLatencyReport extends RunConditions {
  suite: "fill-latency";
  fills: number;
  amount: string;
  pollWatcherMs: number;
  runs: FillLatencyRun[];
}

const between = (start: number | null, end: number | null) =>
  start === null || end === null ? null : end - start;

/** One row of a run's table: what it measures (start → end) and each fill's value. */
interface Measure {
  label: string;
  values: Array<number | null>;
  target?: string;
}

function measures(run: Omit<FillLatencyRun, "targets">): Measure[] {
  const { fills } = run;
  const list: Measure[] = [
    {
      label: "head seen (newHeads over WS) → `filled` on A's stream",
      values: fills.map((f) => between(f.headSeenAt, f.filledOnA)),
      target:
        run.heads === "websocket"
          ? `p50 ≤ ${FILL_TARGETS.websocket.p50Ms}, p99 ≤ ${FILL_TARGETS.websocket.p99Ms}`
          : `p99 ≤ ${FILL_TARGETS.polling.p99Ms}`,
    },
    {
      label: `head polled (every 20 ms) → \`filled\` on A's stream`,
      values: fills.map((f) => between(f.polledSeenAt, f.filledOnA)),
    },
    {
      label: "block timestamp (whole s) → `filled` on A's stream",
      values: fills.map((f) => between(f.blockTimestampMs, f.filledOnA)),
    },
  ];
  if (run.replica) {
    list.push(
      {
        label: "head seen (newHeads over WS) → `filled` on B's stream",
        values: fills.map((f) => between(f.headSeenAt, f.filledOnB)),
        target: `p99 ≤ ${FILL_TARGETS.replica.p99Ms}`,
      },
      {
        label: "`filled` on A's stream → `filled` on B's stream",
        values: fills.map((f) => between(f.filledOnA, f.filledOnB)),
      },
    );
  }
  list.push(
    {
      label: "head seen over WS → head polled (the watchers' cross-check)",
      values: fills.map((f) => between(f.headSeenAt, f.polledSeenAt)),
    },
    {
      label: "POST /order answered → head seen (solver fills, block mined)",
      values: fills.map((f) => between(f.submittedAt, f.headSeenAt)),
    },
  );
  return list;
}

export function judgeFillLatencyTargets(run: Omit<FillLatencyRun, "targets">): Verdict[] {
  const onA = distribution(run.fills.map((f) => between(f.headSeenAt, f.filledOnA)));
  const all = (d: Distribution) => `${d.samples} of ${run.fills.length}`;
  const figures = (d: Distribution) =>
    `p50 ${ms(d.p50)}, p99 ${ms(d.p99)}, max ${ms(d.max)} ms (${all(d)} fills)`;
  const complete = (d: Distribution) => d.missed === 0 && d.samples > 0;
  const verdicts: Verdict[] = [];
  if (run.heads === "websocket") {
    const { p50Ms, p99Ms } = FILL_TARGETS.websocket;
    verdicts.push({
      target: `heads over WebSocket: head seen → \`filled\` on the wallet's stream, p50 ≤ ${p50Ms} ms, p99 ≤ ${p99Ms} ms`,
      measured: figures(onA),
      pass: complete(onA) && onA.p50 <= p50Ms && onA.p99 <= p99Ms,
    });
    if (run.replica) {
      const onB = distribution(run.fills.map((f) => between(f.headSeenAt, f.filledOnB)));
      verdicts.push({
        target: `a second replica streaming the same orders: head seen → \`filled\` on its stream, p99 ≤ ${FILL_TARGETS.replica.p99Ms} ms`,
        measured: figures(onB),
        pass: complete(onB) && onB.p99 <= FILL_TARGETS.replica.p99Ms,
      });
    }
  } else {
    verdicts.push({
      target: `BLOCK_POLL_MS=250, no WebSocket: head seen → \`filled\` on the wallet's stream, p99 ≤ ${FILL_TARGETS.polling.p99Ms} ms`,
      measured: figures(onA),
      pass: complete(onA) && onA.p99 <= FILL_TARGETS.polling.p99Ms,
    });
  }
  return verdicts;
}

function ms(value: number): string {
  return Number.isNaN(value) ? "–" : formatNumber(value);
}

export function formatFillLatencyReport(report: FillLatencyReport): string {
  const lines = [
    `## Fill latency on the devnet, ${report.startedAt}`,
    "",
    machineLine(report),
    "",
    "Setup: `sluice serve` without a deployment (the devnet: anvil mining a block a second, the contracts deployed into " +
      "a fresh data directory and database, the two bundled reference solvers filling the orders they win), in its own " +
      "process: replica A, whose indexer writes the fills. Where named, replica B: a second `sluice serve` on the " +
      "devnet's deployment file, the same database and the same chain (A holds the indexer lease; B learns of each " +
      "fill through the order log's NOTIFY). One wallet, funded by the faucet and approved once, then " +
      `${report.fills} swaps one after another (${report.amount} tRWA → tUSD: quote, EIP-712 signature, POST /order); ` +
      "after each POST /order the wallet opens `GET /orders/stream?orderId=` on each replica and waits for the " +
      "`order` event whose record is `filled` before the next swap.",
    "",
    "Start and end points, all on the bench's clock (epoch ms): **head seen** is when the bench's own watcher, " +
      "subscribed to `newHeads` over WebSocket on anvil, received the fill's block; **head polled** when a second " +
      `watcher polling \`eth_blockNumber\` every ${report.pollWatcherMs} ms first saw it (a cross-check); **block timestamp** ` +
      "is the block's own stamp (whole seconds on anvil, so up to a second before it was mined); **`filled` on A/B** " +
      "is when the bench read that replica's `filled` event off the stream. Percentiles are nearest-rank: with " +
      `${report.fills} fills, p99 is the largest.`,
  ];
  for (const run of report.runs) lines.push("", ...formatRun(run));
  return lines.join("\n");
}

function formatRun(run: FillLatencyRun): string[] {
  const heads =
    run.heads === "websocket"
      ? "heads over WebSocket (the devnet as it is: RPC_WS_URL, anvil's own)"
      : `heads polled (${Object.entries(run.env)
          .map(([name, value]) => `${name}=${value}`)
          .join(", ")})`;
  const table = markdownTable(
    ["start → end", "fills", "missed", "min ms", "p50 ms", "p99 ms", "max ms", "target ms"],
    measures(run).map((measure) => {
      const d = distribution(measure.values);
      return [
        measure.label,
        String(d.samples),
        String(d.missed),
        ms(d.min),
        ms(d.p50),
        ms(d.p99),
        ms(d.max),
        measure.target ?? "",
      ];
    }),
  );
  const perFill = markdownTable(
    [
      "fill",
      "winner",
      "block",
      "order → head seen",
      "block ts → filled A",
      "head seen → filled A",
      "head polled → filled A",
      ...(run.replica ? ["head seen → filled B"] : []),
    ],
    run.fills.map((fill, index) => [
      String(index + 1),
      fill.solverId,
      fill.fillBlock === null ? "–" : String(fill.fillBlock),
      cell(between(fill.submittedAt, fill.headSeenAt)),
      cell(between(fill.blockTimestampMs, fill.filledOnA)),
      cell(between(fill.headSeenAt, fill.filledOnA)),
      cell(between(fill.polledSeenAt, fill.filledOnA)),
      ...(run.replica ? [cell(between(fill.headSeenAt, fill.filledOnB))] : []),
    ]),
  );
  return [
    `### ${run.databaseVersion}: ${heads}${run.replica ? ", and replica B" : ""}`,
    "",
    table,
    "",
    `Devnet start ${run.startupSeconds.toFixed(1)} s; blocks every ${formatNumber(run.blockIntervalMs)} ms on average ` +
      `as the newHeads watcher saw them. Load average ${run.loadAverage.start} at this run's start, ${run.loadAverage.end} at its end.`,
    "",
    ...targetsSection(run.kind, run.targets),
    "",
    "Each fill (ms):",
    "",
    perFill,
  ];
}

function cell(value: number | null): string {
  return value === null ? "–" : formatNumber(value);
}

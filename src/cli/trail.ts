// `sluice trail <id>`: one swap's recorded steps (GET /api-internal/v1/trail), by an order id or any request id along
// the way (a support ticket's X-Request-Id), asked of the running server's internal listener — so it works beside a
// running server on either database, as the server reads it. Printed as lines for a person, or as the JSON (--json).
import type { Command } from "commander";
import { reachableHost } from "../app/listen-address.ts";
import { DEFAULT_INTERNAL_PORT, readEnv } from "../config/env.ts";
import { devnetOnDisk, NoRunningDevnetError } from "../devnet/running.ts";
import type { Trail, TrailAnswer, TrailEntry } from "../trail/trail.ts";

interface TrailOptions {
  internalUrl?: string;
  json?: boolean;
}

export function registerTrailCommand(program: Command): void {
  program
    .command("trail")
    .description(
      "print one swap's trail — the quote round, signature check, hard round, co-signature and every status change " +
        "with its block and transaction, each with its request id — by an order id or a request id, asked of the " +
        "running server's internal listener",
    )
    .argument("<id>", "an order id, or the X-Request-Id of a /quote or /order call")
    .option(
      "--internal-url <url>",
      "the internal API (default: the devnet's of DATA_DIR when one runs, else http://INTERNAL_HOST:INTERNAL_PORT/api-internal/v1)",
    )
    .option("--json", "print the trail as JSON")
    .action(async (id: string, options: TrailOptions) => {
      const base = (options.internalUrl ?? defaultInternalUrl()).replace(/\/+$/, "");
      const trail = await fetchTrail(base, id);
      process.stdout.write(options.json ? `${JSON.stringify(trail, null, 2)}\n` : renderTrail(trail));
    });
}

function defaultInternalUrl(): string {
  const env = readEnv();
  try {
    return devnetOnDisk(env.DATA_DIR).endpoints.internalApiUrl;
  } catch (error) {
    if (!(error instanceof NoRunningDevnetError)) throw error;
  }
  return `http://${reachableHost(env.INTERNAL_HOST)}:${env.INTERNAL_PORT ?? DEFAULT_INTERNAL_PORT}/api-internal/v1`;
}

/** The trail of `id` as an order id, else as a request id. */
async function fetchTrail(base: string, id: string): Promise<Trail> {
  for (const key of ["orderId", "requestId"] as const) {
    const url = `${base}/trail?${key}=${encodeURIComponent(id)}`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new Error(
        `no answer from the internal API at ${base} (${(error as Error).message}); is the server running?`,
      );
    }
    if (response.ok) return (await response.json()) as Trail;
    const body = (await response.json().catch(() => undefined)) as
      | { error?: { code?: string; message?: string } }
      | undefined;
    if (response.status === 404 && body?.error?.code === "TRAIL_NOT_FOUND") continue;
    throw new Error(`${url} answered ${response.status}: ${body?.error?.message ?? response.statusText}`);
  }
  throw new Error(
    `nothing is recorded under ${id}: no order has this id, and no /quote or /order call this request id`,
  );
}

export function renderTrail(trail: Trail): string {
  const lines: string[] = [];
  for (const order of trail.orders)
    lines.push(
      `order ${order.orderId}: ${order.status}, solver ${order.solverId}` +
        `${order.txHash ? `, tx ${order.txHash}` : ""} (hash ${order.orderHash})`,
    );
  if (trail.orders.length === 0) lines.push(`no order (quote round ${trail.quoteRequestId})`);
  for (const entry of trail.entries) lines.push(...entryLines(entry));
  return `${lines.join("\n")}\n`;
}

function entryLines(entry: TrailEntry): string[] {
  const head = (what: string, requestId: string | null) =>
    `${entry.at}  ${what.padEnd(15)} ${requestId ? `request ${requestId}` : "indexer".padEnd(44)}`;
  switch (entry.kind) {
    case "quote-round":
      return [
        `${head("quote round", entry.requestId)}  ${entry.amount} ${entry.tokenIn} → ${entry.tokenOut} for ` +
          `${entry.swapper}${entry.inventoryBlock ? ` at block ${entry.inventoryBlock}` : ""}`,
        ...entry.answers.map(answerLine),
        ...entry.quotes.map(
          (quote) =>
            `    quote ${quote.quoteId} #${quote.rank} ${quote.solverId} ${quote.amountOut} until ${quote.deadline}`,
        ),
      ];
    case "signature-check":
      return [
        `${head("signature check", entry.requestId)}  ${entry.passed ? "passed" : "FAILED"} (${entry.detail})`,
      ];
    case "hard-round":
      return [
        `${head("hard round", entry.requestId)}  quote ${entry.quoteId}`,
        ...entry.answers.map(answerLine),
      ];
    case "co-signature":
      return [`${head("co-signature", entry.requestId)}  signed by ${entry.signer}`];
    case "order-post":
      return [`${head("order re-post", entry.requestId)}  answered order ${entry.orderId}`];
    case "status":
      return [
        `${head("status", entry.requestId)}  ${entry.from ?? "(new)"} → ${entry.to} (${entry.reason})` +
          `${entry.blockNumber ? ` block ${entry.blockNumber}` : ""}${entry.txHash ? ` tx ${entry.txHash}` : ""}`,
      ];
  }
}

function answerLine(answer: TrailAnswer): string {
  const outcome = answer.outcome === "quoted" ? `quoted ${answer.amountOut}` : answer.outcome;
  const why = answer.reason ? ` ${answer.reason}${answer.detail ? `: ${answer.detail}` : ""}` : "";
  return `    ${answer.solverId.padEnd(20)} ${outcome}${why} in ${answer.latencyMs} ms`;
}

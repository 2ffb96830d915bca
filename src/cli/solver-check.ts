// `sluice solver check --endpoint <url> --secret <s> [--api <sluice>] [--rpc <url>] [--filler <address>]
// [--caller <address>] [--requests <n>] [--json]`: plays the venue against a solver's endpoint (src/solver-check)
// and exits 1 when it finds a problem. The venue is the Sluice at --api (its GET /deployment), by default the devnet
// running on DATA_DIR; its chain is --rpc, by default a local venue's own relay (`{api}/dev/rpc`).
import { type Command, InvalidArgumentError } from "commander";
import type { Address } from "viem";
import { createChainPublicClient } from "../chain/client.ts";
import { readEnv } from "../config/env.ts";
import { devnetOnDisk, NoRunningDevnetError } from "../devnet/running.ts";
import { checkSolver } from "../solver-check/check.ts";
import { reportText } from "../solver-check/report.ts";
import { readVenue } from "../solver-check/venue.ts";

interface CheckOptions {
  endpoint: string;
  secret: string;
  api?: string;
  rpc?: string;
  filler?: Address;
  caller?: Address;
  requests: number;
  json?: boolean;
}

export function registerSolverCheckCommand(solver: Command): void {
  solver
    .command("check")
    .description(
      "play the venue against a solver's endpoint: sample quote requests for every input token, each answer " +
        "checked against the solver protocol (shape, echoed fields, filler, amounts within the legs offered), " +
        "latency p50/p99 against the venue's timeout, and on chain whether its Executor and filling account are " +
        "authorized; exits 1 when it finds a problem",
    )
    .requiredOption("--endpoint <url>", "the solver's base URL (requests go to {endpoint}/quote)")
    .requiredOption("--secret <secret>", "the shared secret the venue sends (x-rfq-shared-secret)")
    .option("--api <url>", "the venue's Sluice API base (…/api/v1); default: the devnet running on DATA_DIR")
    .option("--rpc <url>", "the venue's chain; default for a local venue: its relay {api}/dev/rpc")
    .option(
      "--filler <address>",
      "the Executor the answers must name (default: the one the first answer names)",
      parseAddress,
    )
    .option(
      "--caller <address>",
      "the account that calls Executor.fill: checked to be one of its callers",
      parseAddress,
    )
    .option("--requests <n>", "sample requests per token pair", parseCount, 10)
    .option("--json", "print the report as one JSON object")
    .action(async (options: CheckOptions) => {
      const apiUrl = (options.api ?? devnetApiUrl(readEnv().DATA_DIR)).replace(/\/+$/, "");
      const venue = await readVenue(apiUrl);
      const rpcUrl = options.rpc ?? (venue.local ? `${apiUrl}/dev/rpc` : undefined);
      if (!rpcUrl)
        throw new InvalidArgumentError(
          `give --rpc <url> for chain ${venue.chainId} (${venue.chainName}): the check reads the adapters and your ` +
            "Executor there",
        );
      // One request per call: the devnet's relay takes no JSON-RPC batches.
      const client = createChainPublicClient({
        chainId: venue.chainId,
        rpcUrls: rpcUrl,
        cacheTimeMs: 0,
        batch: false,
      });
      const report = await checkSolver({
        endpoint: options.endpoint.replace(/\/+$/, ""),
        secret: options.secret,
        venue,
        client,
        ...(options.filler ? { filler: options.filler } : {}),
        ...(options.caller ? { caller: options.caller } : {}),
        requestsPerPair: options.requests,
      });
      process.stdout.write(
        options.json
          ? `${JSON.stringify(report, (_key, value) => (typeof value === "bigint" ? value.toString() : value))}\n`
          : reportText(report),
      );
      if (report.problems > 0) process.exitCode = 1;
    });
}

/** The devnet's API, when no --api names a venue. */
function devnetApiUrl(dataDir: string): string {
  try {
    return devnetOnDisk(dataDir).endpoints.apiUrl;
  } catch (error) {
    if (!(error instanceof NoRunningDevnetError)) throw error;
    throw new InvalidArgumentError(
      `give --api <sluice> (the venue's …/api/v1), or run it beside the devnet: ${error.message}`,
    );
  }
}

function parseAddress(value: string): Address {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value))
    throw new InvalidArgumentError("must be 0x followed by 40 hex characters");
  return value.toLowerCase() as Address;
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw new InvalidArgumentError("must be 1 to 1000");
  return count;
}

// `sluice devnet add-solver --name <name> --endpoint <url> [--id <id>] [--json] [--out <file>]` and its `--remove`:
// a solver of your own on the running devnet of DATA_DIR, without restarting it. Adding deploys the solver's Executor
// with a fresh filling account and has the adapters' market maker authorize it (src/devnet/solver-onboarding.ts),
// then registers the solver with the server through its internal listener's admin route, which answers its fresh
// shared secret; the running server asks it from the next auction on and keeps it across restarts. What the operator
// needs is printed and written to a file only they can read. `--remove` takes it out of the auctions, then takes the
// Executor's authorization back.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { AdminClient } from "../admin/client.ts";
import { readEnv } from "../config/env.ts";
import { SOLVER_ID_PATTERN } from "../deployment/schema.ts";
import { findRunningDevnet, type RunningDevnet } from "../devnet/running.ts";
import {
  deploySolverAccount,
  SOLVER_CALLER_ETH,
  setExecutorAuthorization,
} from "../devnet/solver-onboarding.ts";
import { writeJsonAtomically } from "../shared/json-file.ts";

interface AddSolverOptions {
  name: string;
  endpoint?: string;
  id?: string;
  json?: boolean;
  out?: string;
  remove?: boolean;
}

/** What `add-solver` prints with `--json` and writes to its file. */
export interface AddedSolverReport {
  id: string;
  name: string;
  endpoint: string;
  /** Sent in `x-rfq-shared-secret` with every quote request; the solver's order stream asks it too. */
  secret: string;
  /** The solver's Executor: the `filler` of its answers. */
  executor: string;
  /** The key of the only account allowed to call the Executor (and its owner). */
  callerKey: string;
  caller: string;
  chainId: number;
  /** This run's anvil (its port changes at every devnet start). */
  rpcUrl: string;
  /** The devnet's chain relayed by Sluice at a fixed address: reads and signed transactions, no JSON-RPC batches. */
  relayRpcUrl: string;
  apiUrl: string;
  reactor: string;
  adapters: string[];
  file: string;
}

export function registerDevnetSolverCommands(devnet: Command): void {
  devnet
    .command("add-solver")
    .description(
      "add your solver to the running devnet of DATA_DIR, from its next auction on and across restarts: deploys " +
        "its Executor with a fresh filling account, authorizes it on the adapters, registers the solver with a fresh " +
        "shared secret, and prints (and writes to a file only you can read) what your solver needs; with --remove, " +
        "takes it out",
    )
    .requiredOption("--name <name>", "the solver's name (its id is devnet_<name> in lowercase unless --id)")
    .option("--endpoint <url>", "the solver's base URL: Sluice POSTs {endpoint}/quote (required to add)")
    .option("--id <id>", "the solver's id (<prefix>_<solver_name> in lowercase)")
    .option("--json", "print one JSON object (id, secret, executor, callerKey, …) instead of text")
    .option("--out <file>", "where to write what is printed (default DATA_DIR/devnet/solver-<id>.json)")
    .option("--remove", "take the solver out of the auctions and take its Executor's authorization back")
    .action(async (options: AddSolverOptions) => {
      const id = solverIdOf(options);
      const env = readEnv();
      if (options.remove) return removeSolver(await findRunningDevnet(env.DATA_DIR), id, options);
      if (!options.endpoint)
        throw new InvalidArgumentError("give --endpoint <url>: where your solver answers");
      const endpoint = parseEndpoint(options.endpoint);
      const devnet = await findRunningDevnet(env.DATA_DIR);
      await addSolver(devnet, { id, name: options.name, endpoint }, options);
    });
}

async function addSolver(
  devnet: RunningDevnet,
  solver: { id: string; name: string; endpoint: string },
  options: AddSolverOptions,
): Promise<void> {
  const admin = new AdminClient({
    internalApiUrl: devnet.endpoints.internalApiUrl,
    token: devnet.adminToken,
  });
  // Refused before anything is sent to the chain.
  const taken = (await admin.solvers()).find((existing) => existing.id === solver.id);
  if (taken)
    throw new InvalidArgumentError(
      `the devnet has a solver ${solver.id} already${taken.added ? " (remove it first with --remove)" : ""}; ` +
        "choose another --name or --id",
    );
  const target = {
    rpcUrl: devnet.endpoints.rpcUrl,
    chainId: devnet.endpoints.chainId,
    core: devnet.record.core,
  };
  const account = await deploySolverAccount(target);
  const added = await admin
    .addSolver({ ...solver, filler: account.executor })
    .catch(async (error: unknown) => {
      // Not registered: its Executor is no filler either (a failure to take that back is not the news here).
      await setExecutorAuthorization(target, account.executor, false).catch(() => {});
      throw error;
    });
  const file = options.out ?? solverFile(devnet, added.id);
  const report: AddedSolverReport = {
    id: added.id,
    name: added.name,
    endpoint: added.endpoint,
    secret: added.sharedSecret,
    executor: account.executor,
    callerKey: account.callerKey,
    caller: account.caller,
    chainId: devnet.endpoints.chainId,
    rpcUrl: devnet.endpoints.rpcUrl,
    relayRpcUrl: `${devnet.endpoints.apiUrl}/dev/rpc`,
    apiUrl: devnet.endpoints.apiUrl,
    reactor: devnet.record.core.reactor,
    adapters: Object.values(devnet.record.core.adapters),
    file,
  };
  writeJsonAtomically(file, report, { mode: 0o600 });
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : addedText(report, devnet));
}

async function removeSolver(devnet: RunningDevnet, id: string, options: AddSolverOptions): Promise<void> {
  const admin = new AdminClient({
    internalApiUrl: devnet.endpoints.internalApiUrl,
    token: devnet.adminToken,
  });
  // Out of the auctions first; then no fill through its Executor can pass the adapters either.
  const removed = await admin.removeSolver(id);
  const target = {
    rpcUrl: devnet.endpoints.rpcUrl,
    chainId: devnet.endpoints.chainId,
    core: devnet.record.core,
  };
  await setExecutorAuthorization(target, removed.filler, false);
  const file = options.out ?? solverFile(devnet, id);
  if (existsSync(file)) rmSync(file);
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ id, removed: true, executor: removed.filler })}\n`
      : `Removed solver ${id} from the devnet: no auction asks it any more, and its Executor ${removed.filler} is ` +
          "no longer a filler of the adapters.\n",
  );
}

function addedText(report: AddedSolverReport, devnet: RunningDevnet): string {
  const eth = Number(SOLVER_CALLER_ETH / 10n ** 18n);
  const check = `npx sluice solver check --endpoint ${report.endpoint} --secret ${report.secret} --filler ${report.executor} --caller ${report.caller}`;
  return [
    `Added solver ${report.id} ("${report.name}") to the devnet in ${devnet.dataDir}: the next auction asks it.`,
    "",
    `  endpoint   ${report.endpoint}`,
    "             Sluice POSTs {endpoint}/quote; answer within the auction's timeout (GET /deployment: solverTimeoutMs)",
    `  secret     ${report.secret}`,
    "             sent in x-rfq-shared-secret with every request: refuse requests without it (401)",
    `  executor   ${report.executor}`,
    "             your Executor, authorized on every adapter: name it as `filler` in every answer",
    `  callerKey  ${report.callerKey}`,
    `             account ${report.caller} (${eth} ETH): the only one allowed to call Executor.fill`,
    `  chain      ${report.chainId}: RPC ${report.rpcUrl} (this run's anvil; endpoints.json names the next run's),`,
    `             or ${report.relayRpcUrl} (Sluice's relay at a fixed address; no JSON-RPC batches)`,
    `  reactor    ${report.reactor}`,
    `  adapters   ${report.adapters.join(", ")}`,
    `  api        ${report.apiUrl}`,
    `             your won orders: GET /orders?solverId=${report.id}&orderStatus=open (or the order stream)`,
    "",
    `Written to ${report.file} (readable by you only). The devnet keeps the solver across restarts.`,
    `Check your solver:  ${check}`,
    `Remove it:          npx sluice devnet add-solver --name ${JSON.stringify(report.name)} --id ${report.id} --remove`,
    "",
  ].join("\n");
}

function solverFile(devnet: RunningDevnet, id: string): string {
  return join(devnet.files.dir, `solver-${id}.json`);
}

/** `--id`, else `devnet_<name>`: lowercase, every run of other characters one underscore. */
function solverIdOf(options: AddSolverOptions): string {
  const id =
    options.id ??
    `devnet_${options.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")}`;
  if (!SOLVER_ID_PATTERN.test(id))
    throw new InvalidArgumentError(
      `${id} is not a solver id (<prefix>_<solver_name> in lowercase): give --id, or a --name with letters or digits`,
    );
  return id;
}

function parseEndpoint(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`--endpoint ${value} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError(`--endpoint ${value} must be http or https`);
  return value.replace(/\/+$/, "");
}

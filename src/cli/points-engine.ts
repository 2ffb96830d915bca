// `sluice points engine status`, `sluice points engine backfill [--from <block>]` and `sluice points verify --block
// <b>`: the own points type's engine, on the deployment `serve` would run (DEPLOYMENT / DEPLOYMENT_FILE with RPC_URLS,
// or the devnet running on DATA_DIR).

import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import { type ChainPublicClient, createChainPublicClient } from "../chain/client.ts";
import { systemClock } from "../clock.ts";
import { type Env, readEnv } from "../config/env.ts";
import { loadDeployment, parseDeployment } from "../deployment/load.ts";
import { type Deployment, finalityDepthOf } from "../deployment/schema.ts";
import { devnetOnDisk } from "../devnet/running.ts";
import { createLogger } from "../logger.ts";
import { buildPointsEngine } from "../points-engine/build.ts";
import { type BackfillProgress, backfill } from "../points-engine/engine.ts";
import { PointsEngineNotConfiguredError } from "../points-engine/errors.ts";
import { engineStatusText } from "../points-engine/status.ts";
import { verifyPointsAt } from "../points-engine/verify.ts";
import { createProgressBar } from "../shared/progress-bar.ts";
import { withDatabaseOrServer } from "./database.ts";

export function registerPointsEngineCommands(points: Command): void {
  const engine = points
    .command("engine")
    .description("the own points type's engine (the deployment's pointsEngine)");
  engine
    .command("status")
    .description(
      "where the engine is: position, lag behind the confirmed head, last snapshot, blocks per second",
    )
    .action(async () => {
      const env = readEnv();
      const target = engineTarget(env);
      const text = await withDatabaseOrServer(
        {
          onDatabase: (database) =>
            engineStatusText(database, {
              config: target.config,
              confirmations: target.config.confirmations ?? target.deployment.confirmationDepth,
              head: () => target.client.getBlockNumber({ cacheTime: 0 }),
            }),
          throughServer: (server) => server.pointsEngineStatus(),
        },
        env,
      );
      process.stdout.write(text);
    });
  engine
    .command("backfill")
    .description(
      "compute up to the confirmed head now, with a progress bar; --from recomputes from that block (from the " +
        "newest kept state at or before it, else from the start block)",
    )
    .option("--from <block>", "recompute from this block", parseBlock)
    .action(async (options: { from?: bigint }) => {
      const env = readEnv();
      const target = engineTarget(env);
      const bar = createProgressBar("points engine", "blocks", { eta: true });
      const showProgress = (progress: BackfillProgress) => {
        const origin = progress.startedAt ?? target.config.startBlock - 1n;
        bar.update(
          Number((progress.position ?? origin) - origin),
          Math.max(1, Number(progress.target - origin)),
        );
      };
      let interrupted = false;
      // Through a server, Ctrl-C ends the request: the server stops after the step in flight.
      const abort = new AbortController();
      const onSigint = () => {
        interrupted = true;
        abort.abort();
      };
      process.once("SIGINT", onSigint);
      let result: BackfillProgress;
      try {
        result = await withDatabaseOrServer(
          {
            onDatabase: (database) => {
              const parts = buildPointsEngine({
                config: target.config,
                confirmationDepth: target.deployment.confirmationDepth,
                finalityDepth: finalityDepthOf(target.deployment),
                client: target.client,
                database,
                clock: systemClock,
                logger: createLogger({ level: env.LOG_LEVEL, destination: "stderr" }),
              });
              return backfill({
                database,
                follower: parts.follower,
                ...(options.from === undefined ? {} : { from: options.from }),
                stopped: () => interrupted,
                onProgress: showProgress,
                // Beside a server that runs the engine (PostgreSQL): it computes already; follow it to the head.
                followRunningEngine: {},
              });
            },
            throughServer: async (server) => {
              let last: BackfillProgress | undefined;
              try {
                return await server.pointsEngineBackfill(
                  options.from,
                  (progress) => {
                    last = progress;
                    showProgress(progress);
                  },
                  abort.signal,
                );
              } catch (error) {
                if (interrupted && last) return last;
                throw error;
              }
            },
          },
          env,
        );
      } finally {
        bar.stop();
        process.off("SIGINT", onSigint);
      }
      if (result.rewoundTo !== undefined)
        process.stdout.write(
          result.rewoundTo < 0n
            ? "recomputed from the start block\n"
            : `rewound to block ${result.rewoundTo}\n`,
        );
      process.stdout.write(
        `points engine at block ${result.position ?? "none"}${interrupted ? " (interrupted)" : ""}: ` +
          `${result.blocks} blocks, ${result.events} stake events` +
          (result.followed
            ? `; ${result.followed.blocks} blocks computed meanwhile by the running engine (${result.followed.holder})`
            : "") +
          "\n",
      );
    });
  points
    .command("verify")
    .description(
      "recompute the points at a block from the chain alone by a second path (every block's state read through the " +
        "contracts, per-block per-receiver arithmetic) and print every difference from the engine's; exits 1 on a " +
        "difference beyond the rounding bound (one unit per receiver per block) or any total that differs",
    )
    .requiredOption("--block <b>", "the block to verify", parseBlock)
    .action(async (options: { block: bigint }) => {
      const target = engineTarget(readEnv());
      const bar = createProgressBar("replaying", "blocks", { eta: true });
      let comparison: Awaited<ReturnType<typeof verifyPointsAt>>;
      try {
        comparison = await verifyPointsAt({
          client: target.client,
          config: target.config,
          block: options.block,
          onBlock: (at, { from, to }) => bar.update(Number(at - from), Number(to - from)),
        });
      } finally {
        bar.stop();
      }
      const out: string[] = [
        `block ${comparison.block}: ${comparison.blocks} blocks replayed; emitted ${comparison.emitted.ledger} ` +
          `(engine) / ${comparison.emitted.replay} (replay)`,
      ];
      for (const total of comparison.totals)
        out.push(`TOTAL ${total.vault ?? "overall"}: engine ${total.ledger}, replay ${total.replay}`);
      for (const r of comparison.receivers)
        out.push(
          `${r.withinBound ? "within bound" : "BEYOND BOUND"} ${r.vault} ${r.type} ${r.receiver}: engine ${r.ledger}, ` +
            `replay ${r.replay} (difference ${r.difference}, allowed ${r.allowed})`,
        );
      for (const problem of comparison.problems) out.push(`PROBLEM ${problem}`);
      out.push(
        comparison.ok ? "ok: the engine's points agree with the replay" : "FAILED: see the lines above",
      );
      process.stdout.write(`${out.join("\n")}\n`);
      if (!comparison.ok) process.exitCode = 1;
    });
}

interface EngineTarget {
  deployment: Deployment;
  config: NonNullable<Deployment["pointsEngine"]>;
  client: ChainPublicClient;
}

/** The deployment `serve` would run and its chain: the configured one, or the devnet on DATA_DIR. */
function engineTarget(env: Env): EngineTarget {
  let deployment: Deployment;
  let rpcUrls: string[];
  let source: string;
  if (env.DEPLOYMENT || env.DEPLOYMENT_FILE) {
    deployment = loadDeployment({
      ...(env.DEPLOYMENT ? { network: env.DEPLOYMENT } : {}),
      ...(env.DEPLOYMENT_FILE ? { file: env.DEPLOYMENT_FILE } : {}),
    });
    rpcUrls = (process.env.RPC_URLS || process.env.RPC_URL || "").split(",").filter(Boolean);
    if (rpcUrls.length === 0)
      throw new InvalidArgumentError("set RPC_URLS (or RPC_URL) to the deployment's chain");
    source = env.DEPLOYMENT_FILE ?? env.DEPLOYMENT ?? "";
  } else {
    const devnet = devnetOnDisk(env.DATA_DIR);
    source = devnet.files.deployment;
    deployment = parseDeployment(JSON.parse(readFileSync(source, "utf8")), source);
    rpcUrls = [devnet.endpoints.rpcUrl];
  }
  if (!deployment.pointsEngine) throw new PointsEngineNotConfiguredError(source);
  const client = createChainPublicClient({
    chainId: deployment.chainId,
    name: deployment.chainName,
    rpcUrls,
    timeoutMs: env.RPC_TIMEOUT_MS,
    retryCount: 1,
  });
  return { deployment, config: deployment.pointsEngine, client };
}

function parseBlock(value: string): bigint {
  if (!/^\d+$/.test(value) || BigInt(value) < 1n)
    throw new InvalidArgumentError("must be a block number (≥ 1)");
  return BigInt(value);
}

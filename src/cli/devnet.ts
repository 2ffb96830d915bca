// `sluice devnet`: the local devnet and the API on it, whatever DEPLOYMENT says (`serve` without a deployment).
import type { Command } from "commander";
import { readEnv } from "../config/env.ts";
import { createLogger } from "../logger.ts";
import { registerDevnetSolverCommands } from "./devnet-solvers.ts";
import { stopOnSignalsOrOrphaning } from "./lifetime.ts";
import { serveDevnet } from "./serve.ts";

export function registerDevnetCommand(program: Command): void {
  const devnet = program
    .command("devnet")
    .description(
      "run the local devnet (anvil, contracts, faucet, two reference solvers; state kept under DATA_DIR/devnet) " +
        "and serve the API on it (PORT, DATABASE_URL or DATA_DIR, PUBLIC_URL, LOG_LEVEL)",
    )
    .action(async () => {
      const env = readEnv();
      const logger = createLogger({ level: env.LOG_LEVEL });
      if (env.DEPLOYMENT || env.DEPLOYMENT_FILE) {
        logger.warn(
          { DEPLOYMENT: env.DEPLOYMENT, DEPLOYMENT_FILE: env.DEPLOYMENT_FILE },
          "`sluice devnet` ignores DEPLOYMENT and DEPLOYMENT_FILE; use `sluice serve` to run a deployment",
        );
      }
      const started = serveDevnet({ ...env, DEPLOYMENT: undefined, DEPLOYMENT_FILE: undefined }, logger);
      stopOnSignalsOrOrphaning(started, env, logger);
      await started;
    });
  registerDevnetSolverCommands(devnet);
}

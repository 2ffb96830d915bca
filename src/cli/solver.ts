// `sluice solver --config <file>`: runs one reference solver (quote server + filler) until SIGINT/SIGTERM.
import type { Command } from "commander";
import { createLogger } from "../logger.ts";
import { loadSolverConfig, readSolverSecrets } from "../reference-solver/config.ts";
import { startReferenceSolver } from "../reference-solver/main.ts";

export function registerSolverCommand(program: Command): void {
  program
    .command("solver")
    .description(
      "run the reference solver: answers POST {basePath}/quote and fills its won orders through its Executor " +
        "(secrets from the environment variables the config file names; LOG_LEVEL)",
    )
    .requiredOption("--config <file>", "the solver's JSON config file")
    .action(async (options: { config: string }) => {
      const config = loadSolverConfig(options.config);
      const secrets = readSolverSecrets(config, process.env);
      const logger = createLogger({ level: process.env.LOG_LEVEL, name: "sluice-solver" });
      const solver = await startReferenceSolver(config, { ...secrets, logger });
      process.stdout.write(`solver ${config.solverId} listening on ${solver.url}\n`);
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, "stopping");
        solver.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, "stop failed");
            process.exit(1);
          },
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

// `sluice solver --config <file>`: runs one reference solver (quote server + filler) until SIGINT/SIGTERM; its
// subcommand `sluice solver check` (solver-check.ts) checks any solver's endpoint against a venue.
import type { Command } from "commander";
import { createLogger } from "../logger.ts";
import { loadSolverConfig, readSolverSecrets } from "../reference-solver/config.ts";
import { startReferenceSolver } from "../reference-solver/main.ts";
import { registerSolverCheckCommand } from "./solver-check.ts";

export function registerSolverCommand(program: Command): void {
  const command: Command = program
    .command("solver")
    .description(
      "run the reference solver: answers POST {basePath}/quote and fills its won orders through its Executor " +
        "(secrets from the environment variables the config file names; LOG_LEVEL)",
    )
    // Not a required option: commander would ask it of `sluice solver check` too.
    .option("--config <file>", "the solver's JSON config file (required)")
    .action(async (options: { config?: string }) => {
      if (!options.config) command.error("error: required option '--config <file>' not specified");
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
  registerSolverCheckCommand(command);
}

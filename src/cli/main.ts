// `sluice` — the command line of the service. Each subcommand lives in its own module.
import { Command } from "commander";
import { registerDevnetCommand } from "./devnet.ts";
import { registerImportCommands } from "./import.ts";
import { registerMigrateCommand } from "./migrate.ts";
import { registerPointsCommands } from "./points.ts";
import { registerPrepareCommand } from "./prepare.ts";
import { registerServeCommand } from "./serve.ts";
import { registerSolverCommand } from "./solver.ts";
import { registerSolversCommands } from "./solvers.ts";

const program = new Command()
  .name("sluice")
  .description("Sluice: redemption-swap backend, partner points and registries")
  .showHelpAfterError();

registerServeCommand(program);
registerDevnetCommand(program);
registerMigrateCommand(program);
registerImportCommands(program);
registerPointsCommands(program);
registerSolverCommand(program);
registerSolversCommands(program);
registerPrepareCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`sluice: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

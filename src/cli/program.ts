// The `sluice` command tree, built without running anything: main.ts parses the process's arguments with it, and
// the docs test parses every command the guides show with it.
import { Command } from "commander";
import { registerDevnetCommand } from "./devnet.ts";
import { registerImportCommands } from "./import.ts";
import { registerKeysCommands } from "./keys.ts";
import { registerMigrateCommand } from "./migrate.ts";
import { registerPointsCommands } from "./points.ts";
import { registerPrepareCommand } from "./prepare.ts";
import { registerServeCommand } from "./serve.ts";
import { registerSolverCommand } from "./solver.ts";
import { registerSolversCommands } from "./solvers.ts";
import { registerTrailCommand } from "./trail.ts";

export function buildProgram(): Command {
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
  registerKeysCommands(program);
  registerTrailCommand(program);
  registerPrepareCommand(program);
  return program;
}

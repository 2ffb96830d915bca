// `sluice import registry|points`: each domain registers its own subcommand.
import type { Command } from "commander";
import { registerImportPointsCommand } from "./import-points.ts";
import { registerImportRegistryCommand } from "./import-registry.ts";

export function registerImportCommands(program: Command): void {
  const importCommand = program.command("import").description("load data into the database");
  registerImportRegistryCommand(importCommand);
  registerImportPointsCommand(importCommand);
}

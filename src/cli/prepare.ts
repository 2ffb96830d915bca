import type { Command } from "commander";
import { ensureMigratedPgliteTemplate } from "../db/migrate.ts";

export function registerPrepareCommand(program: Command): void {
  program
    .command("prepare")
    .description(
      "build what makes a first start fast: the migrated template new embedded databases are copied from (npm ci runs it)",
    )
    .action(async () => {
      const template = await ensureMigratedPgliteTemplate();
      process.stdout.write(`embedded database template ready: ${template}\n`);
    });
}

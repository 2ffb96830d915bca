import type { Command } from "commander";
import { ensureMigratedPgliteTemplate } from "../db/migrate.ts";
import { buildClientPackage } from "./client-package.ts";

export function registerPrepareCommand(program: Command): void {
  program
    .command("prepare")
    .description(
      "build what makes a first start fast (the migrated template new embedded databases are copied from) and dist/client, what sluice/client imports (npm ci runs it)",
    )
    .action(async () => {
      const template = await ensureMigratedPgliteTemplate();
      process.stdout.write(`embedded database template ready: ${template}\n`);
      process.stdout.write(`client built: ${await buildClientPackage()}\n`);
    });
}

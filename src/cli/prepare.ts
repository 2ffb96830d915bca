import type { Command } from "commander";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { ensurePgliteTemplate } from "../db/pglite-template.ts";

export function registerPrepareCommand(program: Command): void {
  program
    .command("prepare")
    .description(
      "build what makes a first start fast: the migrated template new embedded databases are copied from (npm ci runs it)",
    )
    .action(async () => {
      const template = await ensurePgliteTemplate(async (dataDir) => {
        const database = await openDatabase({ kind: "pglite", dataDir });
        await migrate(database);
        await database.close();
      });
      process.stdout.write(`embedded database template ready: ${template}\n`);
    });
}

import type { Command } from "commander";
import { openMigratedDatabase } from "./database.ts";

export function registerMigrateCommand(program: Command): void {
  program
    .command("migrate")
    .description("apply database migrations (DATABASE_URL, or the embedded database under DATA_DIR)")
    .action(async () => {
      const database = await openMigratedDatabase();
      await database.close();
      process.stdout.write(`migrations applied (${database.kind})\n`);
    });
}

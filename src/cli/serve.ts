import type { Command } from "commander";
import { readEnv } from "../config/env.ts";
import { createLogger } from "../logger.ts";
import { exitOnSignals, startService } from "../service.ts";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the API (PORT, DATABASE_URL or DATA_DIR, PUBLIC_URL, LOG_LEVEL)")
    .action(async () => {
      const env = readEnv();
      const logger = createLogger({ level: env.LOG_LEVEL });
      const service = await startService({ env, logger });
      exitOnSignals(service, logger);
    });
}

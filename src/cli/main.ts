// `sluice` — the command line of the service. Each subcommand lives in its own module; program.ts assembles them.
import { buildProgram } from "./program.ts";

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`sluice: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

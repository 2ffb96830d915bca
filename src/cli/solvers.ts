// `sluice solvers cooldown --lift <id> | --set <id> --until <ISO-8601>`: the operator's override of the fade breaker,
// written to the stored state that every replica re-reads within 250 ms. Beside a server running on the embedded
// database, the server writes it (src/cli/database.ts withDatabaseOrServer).
import { existsSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import { systemClock } from "../clock.ts";
import { readEnv } from "../config/env.ts";
import { logCooldownChange } from "../cooldowns/cooldowns.ts";
import { CooldownRepository } from "../cooldowns/repository.ts";
import { loadDeployment } from "../deployment/load.ts";
import { SOLVER_ID_PATTERN } from "../deployment/schema.ts";
import { devnetFiles } from "../devnet/devnet.ts";
import { createLogger } from "../logger.ts";
import { withDatabaseOrServer } from "./database.ts";

interface CooldownOptions {
  lift?: string;
  set?: string;
  until?: Date;
}

export function registerSolversCommands(program: Command): void {
  const solvers = program.command("solvers").description("the configured solvers");
  solvers
    .command("cooldown")
    .description(
      "lift a solver's cooldown (--lift <id>; its doubling starts over) or put it in cooldown until a time " +
        "(--set <id> --until <ISO-8601>), on the database DATABASE_URL or DATA_DIR names; with DEPLOYMENT or " +
        "DEPLOYMENT_FILE the id must be one of its solvers",
    )
    .option("--lift <id>", "end the solver's cooldown now and reset its doubling")
    .option("--set <id>", "put the solver in cooldown until --until")
    .option("--until <ISO-8601>", "when the cooldown --set starts ends (in the future)", parseInstant)
    .action(async (options: CooldownOptions) => {
      const solverId = checkedOptions(options);
      const env = readEnv();
      checkSolverId(solverId, env);
      const now = systemClock.now();
      const logger = createLogger({ level: env.LOG_LEVEL, destination: "stderr" });
      await withDatabaseOrServer(
        {
          onDatabase: async (database) => {
            const repository = new CooldownRepository(database.db);
            const changes = options.lift
              ? await repository.lift(solverId, now)
              : await repository.set(solverId, options.until!, now);
            // Logged once, here, where they are recorded (the replicas only read them).
            for (const change of changes) logCooldownChange(logger, change);
          },
          // The running server records the change, and logs it in its own log.
          throughServer: (server) =>
            server.overrideCooldown(
              options.lift ? { solverId, lift: true } : { solverId, until: options.until!.toISOString() },
            ),
        },
        env,
      );
      // Printed once the change is stored (the database closed, or the server answered).
      process.stdout.write(
        options.lift
          ? `${solverId}: no cooldown; its doubling starts over\n`
          : `${solverId}: in cooldown until ${options.until!.toISOString()}\n`,
      );
    });
}

function checkedOptions(options: CooldownOptions): string {
  if (options.lift && options.set)
    throw new InvalidArgumentError("give either --lift <id> or --set <id>, not both");
  if (options.lift) {
    if (options.until) throw new InvalidArgumentError("--until goes with --set, not --lift");
    return options.lift;
  }
  if (!options.set) throw new InvalidArgumentError("give --lift <id> or --set <id> --until <ISO-8601>");
  if (!options.until) throw new InvalidArgumentError("--set needs --until <ISO-8601>");
  if (options.until <= systemClock.now())
    throw new InvalidArgumentError(`--until ${options.until.toISOString()} is not in the future`);
  return options.set;
}

/**
 * The id must be a solver of the deployment `serve` runs on: the one DEPLOYMENT/DEPLOYMENT_FILE name, else the
 * devnet's in DATA_DIR (its deployment.json). With neither there is nothing to check an id against, so nothing is
 * written: a cooldown for a solver that does not exist would be stored and shown, and never matter.
 */
function checkSolverId(solverId: string, env: ReturnType<typeof readEnv>): void {
  if (!SOLVER_ID_PATTERN.test(solverId))
    throw new InvalidArgumentError(`${solverId} is not a solver id (<prefix>_<solver_name> in lowercase)`);
  const devnetDeployment = devnetFiles(env.DATA_DIR).deployment;
  const named = env.DEPLOYMENT || env.DEPLOYMENT_FILE;
  if (!named && !existsSync(devnetDeployment))
    throw new InvalidArgumentError(
      `no deployment to check ${solverId} against: set DEPLOYMENT or DEPLOYMENT_FILE to the deployment the server ` +
        `runs, or start the devnet in ${env.DATA_DIR} first`,
    );
  const deployment = loadDeployment(
    named
      ? {
          ...(env.DEPLOYMENT ? { network: env.DEPLOYMENT } : {}),
          ...(env.DEPLOYMENT_FILE ? { file: env.DEPLOYMENT_FILE } : {}),
        }
      : { file: devnetDeployment },
  );
  const ids = deployment.solvers.map((solver) => solver.id);
  if (!ids.includes(solverId))
    throw new InvalidArgumentError(
      `${solverId} is not a solver of deployment ${deployment.name} (its solvers: ${ids.join(", ") || "none"})`,
    );
}

function parseInstant(value: string): Date {
  // ISO-8601 with a date, a time and a zone (Z or ±hh:mm): a bare date or local time would be ambiguous.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value))
    throw new InvalidArgumentError("must be an ISO-8601 time with a zone, e.g. 2026-11-27T18:00:00Z");
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new InvalidArgumentError("is not a valid time");
  return at;
}

// `sluice keys create --name <integrator> [--quotes-per-minute N] [--reads-per-second N]`, `sluice keys list` and
// `sluice keys revoke <name>`: integrators' API keys. A key is printed once, when created; only its hash is stored.
// On PostgreSQL (DATABASE_URL) the command writes the table, and every running replica re-reads it at once (NOTIFY).
// On the embedded database a running server holds the data directory (PGlite allows one process): the command then
// goes through that server's admin routes on its internal listener (docs/operators.md "Admin beside a running
// server") and prints the same. With no server running it opens the directory itself.
import { type Command, InvalidArgumentError } from "commander";
import type { AdminClient, AdminListedKey } from "../admin/client.ts";
import { ApiKeyRepository } from "../api-keys/repository.ts";
import { apiKeyRecordJson, INTEGRATOR_NAME_PATTERN } from "../api-keys/schemas.ts";
import { API_KEY_HEADER } from "../api-keys/secret.ts";
import { systemClock } from "../clock.ts";
import { type Env, readEnv } from "../config/env.ts";
import type { Database } from "../db/client.ts";
import { withDatabaseOrServer } from "./database.ts";

interface CreateOptions {
  name: string;
  quotesPerMinute?: number;
  readsPerSecond?: number;
  json?: boolean;
}

/** A key's record as printed: the admin routes' JSON form. */
type KeyRecord = AdminListedKey;

export function registerKeysCommands(program: Command): void {
  const keys = program
    .command("keys")
    .description(
      "integrators' API keys (sent in x-api-key): each has its own rate limits and is recorded on its orders",
    );
  keys
    .command("create")
    .description("create an integrator's key and print it, once (only its hash is stored)")
    .requiredOption(
      "--name <integrator>",
      "the integrator's name (letters, digits, '.', '_', '-')",
      parseName,
    )
    .option(
      "--quotes-per-minute <n>",
      "its POST /quote and /order per minute (default RATE_LIMIT_QUOTES_PER_MINUTE)",
      parseLimit,
    )
    .option(
      "--reads-per-second <n>",
      "its reads per second (default RATE_LIMIT_READS_PER_SECOND)",
      parseLimit,
    )
    .option("--json", "print {key, record} as JSON")
    .action(async (options: CreateOptions) => {
      const wanted = {
        name: options.name,
        ...(options.quotesPerMinute ? { quotesPerMinute: options.quotesPerMinute } : {}),
        ...(options.readsPerSecond ? { readsPerSecond: options.readsPerSecond } : {}),
      };
      const created = await onKeys(readEnv(), {
        direct: async (repository) => {
          const { key, record } = await repository.create(wanted, systemClock.now());
          return { key, record: apiKeyRecordJson(record) };
        },
        viaServer: (admin) => admin.createKey(wanted),
      });
      process.stdout.write(
        options.json ? `${JSON.stringify(created)}\n` : createdText(created.key, created.record),
      );
    });
  keys
    .command("list")
    .description("list every key, live and revoked (never the keys themselves)")
    .option("--json", "print the list as JSON")
    .action(async (options: { json?: boolean }) => {
      const records = await onKeys(readEnv(), {
        direct: async (repository) => (await repository.list()).map(apiKeyRecordJson),
        viaServer: (admin) => admin.keys(),
      });
      process.stdout.write(options.json ? `${JSON.stringify(records)}\n` : listText(records));
    });
  keys
    .command("revoke")
    .description("revoke an integrator's key: every replica answers it 401 from now on")
    .argument("<name>", "the integrator's name")
    .action(async (name: string) => {
      const record = await onKeys(readEnv(), {
        direct: async (repository) => apiKeyRecordJson(await repository.revoke(name, systemClock.now())),
        viaServer: (admin) => admin.revokeKey(name),
      });
      process.stdout.write(`${record.name}: key ${record.keyPrefix}… revoked at ${record.revokedAt}\n`);
    });
}

/**
 * Runs a key command on the database DATABASE_URL or DATA_DIR names; when the embedded database is held by a running
 * server, through that server's admin routes instead (src/cli/database.ts withDatabaseOrServer).
 */
function onKeys<T>(
  env: Env,
  run: {
    direct: (repository: ApiKeyRepository) => Promise<T>;
    viaServer: (admin: AdminClient) => Promise<T>;
  },
): Promise<T> {
  return withDatabaseOrServer(
    {
      onDatabase: (database: Database) => run.direct(new ApiKeyRepository(database.db)),
      throughServer: run.viaServer,
    },
    env,
  );
}

function limitsText(record: KeyRecord): string {
  const quotes = record.quotesPerMinute ? `${record.quotesPerMinute}/min` : "default";
  const reads = record.readsPerSecond ? `${record.readsPerSecond}/s` : "default";
  return `quotes ${quotes}, reads ${reads}`;
}

function createdText(key: string, record: KeyRecord): string {
  return [
    `Created the API key of ${record.name} (${limitsText(record)}):`,
    "",
    `  ${key}`,
    "",
    `Shown this once: only its hash is stored. The integrator sends it in the ${API_KEY_HEADER} header.`,
    "",
  ].join("\n");
}

function listText(records: KeyRecord[]): string {
  if (records.length === 0) return "no API keys\n";
  return `${records
    .map(
      (record) =>
        `${record.name}\t${record.keyPrefix}…\t${limitsText(record)}\tcreated ${record.createdAt}\t` +
        (record.revokedAt ? `revoked ${record.revokedAt}` : "live"),
    )
    .join("\n")}\n`;
}

function parseName(value: string): string {
  if (!INTEGRATOR_NAME_PATTERN.test(value))
    throw new InvalidArgumentError(
      "letters, digits, '.', '_' or '-' (at most 64), starting with a letter or digit",
    );
  return value;
}

function parseLimit(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1_000_000)
    throw new InvalidArgumentError("must be a whole number from 1 to 1000000");
  return number;
}

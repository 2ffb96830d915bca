// The stored scope (tables.ts `points_engine_scope`): written once when first read from the chain, read by every
// later start. Bigints are kept as tagged decimal strings.
import { createHash } from "node:crypto";
import type { Database } from "../../db/client.ts";
import type { PointsEngineConfig } from "../../deployment/schema.ts";
import type { ChainScope } from "../chain/scope.ts";

const BIGINT_TAG = "$bigint";

/** Which deployment section a stored scope was read for: its canonical JSON's hash. */
export function scopeConfigKey(config: PointsEngineConfig): string {
  const canonical = JSON.stringify(config, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
  return createHash("sha256").update(canonical).digest("hex");
}

export async function readStoredScope(
  database: Database,
  configKey: string,
): Promise<ChainScope | undefined> {
  const rows = await database.query<{ scope: string }>(
    "select scope::text as scope from points_engine_scope where id = 1 and config_key = $1",
    [configKey],
  );
  if (!rows[0]) return undefined;
  return JSON.parse(rows[0].scope, (_key, value: unknown) =>
    value !== null && typeof value === "object" && BIGINT_TAG in value
      ? BigInt((value as Record<string, string>)[BIGINT_TAG]!)
      : value,
  ) as ChainScope;
}

/** Stores the scope read for `configKey`, replacing one read for another section. */
export async function storeScope(database: Database, configKey: string, scope: ChainScope): Promise<void> {
  const json = JSON.stringify(scope, (_key, value: unknown) =>
    typeof value === "bigint" ? { [BIGINT_TAG]: value.toString() } : value,
  );
  await database.query(
    `insert into points_engine_scope (id, config_key, scope, read_at) values (1, $1, $2::jsonb, now())
     on conflict (id) do update set config_key = excluded.config_key, scope = excluded.scope, read_at = excluded.read_at`,
    [configKey, json],
  );
}

// The admin routes that manage API keys on a running server, on the internal listener (never documented), behind this
// run's admin token like every admin route: what `sluice keys` uses when the embedded database is the running
// server's (PGlite allows one process). On PostgreSQL the command writes the table itself.
//
//   GET  /api-internal/v1/admin/keys                  → 200 {keys: [{name, keyPrefix, quotesPerMinute, …}]}
//   POST /api-internal/v1/admin/keys {name, quotesPerMinute?, readsPerSecond?}
//                                                     → 200 {key, record}: the key, answered this once
//                                                       409 VALIDATION_FAILED: the name has (or had) a key
//   POST /api-internal/v1/admin/keys/{name}/revoke    → 200 the revoked key's record; 404 NOT_FOUND: no live key
import { AdminAuthenticationError } from "../../admin/errors.ts";
import type { ApiKeyDirectory } from "../../api-keys/directory.ts";
import { ApiKeyNameTakenError, UnknownApiKeyError } from "../../api-keys/errors.ts";
import type { ApiKeyRepository } from "../../api-keys/repository.ts";
import {
  ApiKeyNameParamsSchema,
  ApiKeyRecordSchema,
  apiKeyRecordJson,
  CreatedApiKeySchema,
  ListedApiKeysSchema,
  NewApiKeySchema,
} from "../../api-keys/schemas.ts";
import type { Clock } from "../../clock.ts";
import type { Handler } from "../route.ts";

export interface AdminKeyServices {
  repository: ApiKeyRepository;
  /** This server's directory: re-read at once after a write, not only when the NOTIFY arrives. */
  directory: ApiKeyDirectory;
  clock: Clock;
}

export const listKeysSchema = {
  summary: "Every API key, live and revoked (never the keys themselves)",
  response: { 200: ListedApiKeysSchema },
  errors: [AdminAuthenticationError],
};

export function listKeys(keys: AdminKeyServices): Handler<typeof listKeysSchema> {
  return async () => ({ keys: (await keys.repository.list()).map(apiKeyRecordJson) });
}

export const createKeySchema = {
  summary: "Create an integrator's API key; the answer is the only time the key is shown",
  body: NewApiKeySchema,
  response: { 200: CreatedApiKeySchema },
  errors: [AdminAuthenticationError, ApiKeyNameTakenError],
  database: true,
};

export function createKey(keys: AdminKeyServices): Handler<typeof createKeySchema> {
  return async (request) => {
    const created = await keys.repository.create(request.body, keys.clock.now());
    await keys.directory.reload();
    return { key: created.key, record: apiKeyRecordJson(created.record) };
  };
}

export const revokeKeySchema = {
  summary: "Revoke an integrator's API key: every replica refuses it from now on",
  params: ApiKeyNameParamsSchema,
  response: { 200: ApiKeyRecordSchema },
  errors: [AdminAuthenticationError, UnknownApiKeyError],
  database: true,
};

export function revokeKey(keys: AdminKeyServices): Handler<typeof revokeKeySchema> {
  return async (request) => {
    const record = await keys.repository.revoke(request.params.name, keys.clock.now());
    await keys.directory.reload();
    return apiKeyRecordJson(record);
  };
}

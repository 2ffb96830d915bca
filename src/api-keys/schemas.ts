// Wire formats of the admin routes that manage API keys on a running server (the internal listener's
// /api-internal/v1/admin/keys, never in the public document): what `sluice keys` sends when the embedded database is
// the running server's.
import { z } from "zod";
import { TimestampSchema } from "../shared/wire.ts";
import type { ApiKeyRecord } from "./repository.ts";

/** An integrator's name: what its orders record and its key is listed under. */
export const INTEGRATOR_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const perWindow = z.number().int().min(1).max(1_000_000);

export const NewApiKeySchema = z
  .object({
    name: z.string().regex(INTEGRATOR_NAME_PATTERN, "letters, digits, '.', '_' or '-', at most 64"),
    quotesPerMinute: perWindow.optional(),
    readsPerSecond: perWindow.optional(),
  })
  .strict();

export const ApiKeyRecordSchema = z.object({
  name: z.string(),
  keyPrefix: z.string(),
  quotesPerMinute: z.number().int().nullable(),
  readsPerSecond: z.number().int().nullable(),
  createdAt: TimestampSchema,
  revokedAt: TimestampSchema.nullable(),
});

export const CreatedApiKeySchema = z.object({
  /** The key itself: answered once, never stored. */
  key: z.string(),
  record: ApiKeyRecordSchema,
});

export const ListedApiKeysSchema = z.object({ keys: z.array(ApiKeyRecordSchema) });

export const ApiKeyNameParamsSchema = z.object({ name: z.string().min(1) });

/** A stored key's record as the admin routes and `sluice keys --json` print it. */
export function apiKeyRecordJson(record: ApiKeyRecord): z.infer<typeof ApiKeyRecordSchema> {
  return {
    ...record,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

// The stored API keys (tables.ts). Each write fires the table's trigger, whose NOTIFY makes every replica's directory
// re-read the keys (directory.ts).
import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ApiKeyNameTakenError, UnknownApiKeyError } from "./errors.ts";
import { generateApiKey, hashApiKey, keyPrefixOf } from "./secret.ts";
import { apiKeys } from "./tables.ts";

/** An integrator's key as stored (never the key itself). */
export interface ApiKeyRecord {
  name: string;
  keyPrefix: string;
  quotesPerMinute: number | null;
  readsPerSecond: number | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What the directory keeps per live key. */
export interface LiveApiKey {
  name: string;
  keyHash: string;
  quotesPerMinute: number | null;
  readsPerSecond: number | null;
}

export interface NewApiKey {
  name: string;
  quotesPerMinute?: number;
  readsPerSecond?: number;
}

const RECORD = {
  name: apiKeys.name,
  keyPrefix: apiKeys.keyPrefix,
  quotesPerMinute: apiKeys.quotesPerMinute,
  readsPerSecond: apiKeys.readsPerSecond,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
};

const LIVE = {
  name: apiKeys.name,
  keyHash: apiKeys.keyHash,
  quotesPerMinute: apiKeys.quotesPerMinute,
  readsPerSecond: apiKeys.readsPerSecond,
};

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  /** Stores a fresh key for `name` and answers it: the only time the key exists outside its holder's hands. */
  async create(key: NewApiKey, now: Date): Promise<{ key: string; record: ApiKeyRecord }> {
    const text = generateApiKey();
    const [record] = await this.db
      .insert(apiKeys)
      .values({
        id: randomUUID(),
        name: key.name,
        keyHash: hashApiKey(text),
        keyPrefix: keyPrefixOf(text),
        quotesPerMinute: key.quotesPerMinute ?? null,
        readsPerSecond: key.readsPerSecond ?? null,
        createdAt: now,
      })
      .onConflictDoNothing({ target: apiKeys.name })
      .returning(RECORD);
    if (!record) throw new ApiKeyNameTakenError(key.name);
    return { key: text, record };
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.db.select(RECORD).from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.name));
  }

  /** Revokes `name`'s live key; throws UnknownApiKeyError when it has none. */
  async revoke(name: string, now: Date): Promise<ApiKeyRecord> {
    const [record] = await this.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.name, name), isNull(apiKeys.revokedAt)))
      .returning(RECORD);
    if (!record) throw new UnknownApiKeyError(name);
    return record;
  }

  /** Every live (unrevoked) key. */
  async live(): Promise<LiveApiKey[]> {
    return this.db.select(LIVE).from(apiKeys).where(isNull(apiKeys.revokedAt));
  }

  /** The live key with this hash, if any. */
  async liveByHash(keyHash: string): Promise<LiveApiKey | undefined> {
    const [row] = await this.db
      .select(LIVE)
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    return row;
  }
}

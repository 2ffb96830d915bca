// An API key's text and what is stored of it. A key is 192 random bits, shown once; only its SHA-256 is stored (a
// fast hash suffices: nobody can search a space that size, so a slow one would only slow every request).
import { createHash, randomBytes } from "node:crypto";

/** The request header a key travels in. */
export const API_KEY_HEADER = "x-api-key";

const PREFIX = "slk_";

export function generateApiKey(): string {
  return `${PREFIX}${randomBytes(24).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What `keys list` shows of a key: enough to tell two apart, nothing to use. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, PREFIX.length + 6);
}

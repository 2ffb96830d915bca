// The admin token: what lets the local operator's commands change a running server through the admin routes of its
// internal listener (`sluice devnet add-solver` for now). A server with admin routes writes a fresh token at every
// start to `<DATA_DIR>/admin-token`, readable by the file's owner only (0600): being able to read it is the
// authorization, as being able to read the data directory's keys and database is. Commands send it as
// `Authorization: Bearer <token>`; a token of an earlier run is refused.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AdminAuthenticationError } from "./errors.ts";

export const ADMIN_TOKEN_FILE = "admin-token";

/** The header the token travels in, as `Bearer <token>`. */
export const ADMIN_AUTH_HEADER = "authorization";

export function adminTokenPath(dataDir: string): string {
  return join(dataDir, ADMIN_TOKEN_FILE);
}

/** Writes a fresh token, owner-readable only (through a rename: a reader never sees half a token), and returns it. */
export function writeAdminToken(path: string): string {
  const token = randomBytes(32).toString("hex");
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${token}\n`, { mode: 0o600 });
  // The mode given at creation passes through the umask; the token must not be readable by anyone else whatever it is.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return token;
}

/** The token the running server wrote, or undefined when there is none (no server with admin routes ran here). */
export function readAdminToken(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const token = readFileSync(path, "utf8").trim();
  return token === "" ? undefined : token;
}

/** Checks the admin token of a request, in constant time. */
export class AdminGuard {
  readonly #digest: Buffer;

  constructor(token: string) {
    if (token.length === 0) throw new Error("an admin token cannot be empty");
    this.#digest = digest(token);
  }

  check(headers: Record<string, string | string[] | undefined>): void {
    const value = headers[ADMIN_AUTH_HEADER];
    const match = typeof value === "string" ? /^Bearer\s+(\S+)$/i.exec(value) : null;
    // Compared as SHA-256 digests: equal length, constant time, whatever was sent.
    if (!match || !timingSafeEqual(digest(match[1]!), this.#digest)) throw new AdminAuthenticationError();
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

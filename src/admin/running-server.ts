// The server running on an embedded data directory, as a command beside it finds it. PGlite allows one process per
// data directory, so a command that writes (an import, a cooldown override) cannot open the database while the
// server holds it; it asks the server to do the write instead, through the admin routes of its internal listener.
// The server says where those are in `<DATA_DIR>/admin-server.json` while it runs, beside the admin token it wrote
// (`<DATA_DIR>/admin-token`, owner-readable only: reading it is the authorization).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AdminClient } from "./client.ts";
import { adminTokenPath, readAdminToken } from "./token.ts";

export const ADMIN_SERVER_FILE = "admin-server.json";

const AdminServerRecordSchema = z.object({
  internalApiUrl: z.url(),
  pid: z.number().int().positive(),
});

export type AdminServerRecord = z.infer<typeof AdminServerRecordSchema>;

export function adminServerPath(dataDir: string): string {
  return join(dataDir, ADMIN_SERVER_FILE);
}

/** Published through a rename: a reader never sees half a record. */
export function writeAdminServerRecord(dataDir: string, record: AdminServerRecord): void {
  const path = adminServerPath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Removes the record if it is still this process's (a newer server's record is left alone). */
export function removeAdminServerRecord(dataDir: string): void {
  if (readAdminServerRecord(dataDir)?.pid === process.pid) rmSync(adminServerPath(dataDir), { force: true });
}

function readAdminServerRecord(dataDir: string): AdminServerRecord | undefined {
  const path = adminServerPath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    return AdminServerRecordSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    return undefined;
  }
}

/**
 * The admin client of the server running on `dataDir`, or undefined when none answers there (no record, no token,
 * or nothing listening at the recorded address): the caller then keeps the lock's own message.
 */
export async function findRunningServer(dataDir: string): Promise<AdminClient | undefined> {
  const record = readAdminServerRecord(dataDir);
  const token = readAdminToken(adminTokenPath(dataDir));
  if (!record || !token) return undefined;
  return (await internalListenerAnswers(record.internalApiUrl))
    ? new AdminClient({ internalApiUrl: record.internalApiUrl, token })
    : undefined;
}

/** Whether a server's internal listener answers its /health within 5 s: a recorded address may be a past run's. */
export function internalListenerAnswers(internalApiUrl: string): Promise<boolean> {
  return fetch(`${internalApiUrl}/health`, { signal: AbortSignal.timeout(5000) }).then(
    (response) => response.ok,
    () => false,
  );
}

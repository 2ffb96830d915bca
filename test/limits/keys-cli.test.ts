// `sluice keys create | list | revoke` (issue 24, item 1), as an operator runs them: the key printed once and only its
// hash stored; on an embedded database with no server, the command opens it; beside a running embedded server (which
// holds the data directory), through that server's admin routes, served at once; on PostgreSQL, written to the table
// while a server runs, and a revoked key refused by it at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/api-keys/secret.ts";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import type { Sluice } from "../../src/app/sluice.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { runSluice } from "../support/cli.ts";
import { createEmptyPostgresDatabase, type EmptyPostgresDatabase } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { createTestServer } from "../support/server.ts";

const KEY = /^ {2}(slk_[A-Za-z0-9_-]{32})$/m;

function printedKey(stdout: string): string {
  const match = KEY.exec(stdout);
  if (!match) throw new Error(`no key printed in: ${stdout}`);
  return match[1]!;
}

describe("sluice keys on an embedded database", () => {
  const dir = temporaryDataDir();
  afterAll(() => dir.remove());
  const env = () => ({ DATA_DIR: dir.path, SLUICE_DEMO_DATA: "0" });

  it("creates a key printed once, lists it without the key, and revokes it", async () => {
    const created = await runSluice(
      ["keys", "create", "--name", "acme", "--quotes-per-minute", "120"],
      env(),
    );
    expect(created.code, created.stderr).toBe(0);
    const key = printedKey(created.stdout);
    expect(created.stdout).toContain("quotes 120/min, reads default");

    const listed = await runSluice(["keys", "list", "--json"], env());
    expect(listed.code, listed.stderr).toBe(0);
    const [record] = JSON.parse(listed.stdout);
    expect(record).toMatchObject({
      name: "acme",
      quotesPerMinute: 120,
      readsPerSecond: null,
      revokedAt: null,
    });
    expect(key.startsWith(record.keyPrefix)).toBe(true);
    expect(listed.stdout).not.toContain(key);

    const revoked = await runSluice(["keys", "revoke", "acme"], env());
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/^acme: key slk_\S+… revoked at /);
    // Three cold starts of the embedded database: slow on a busy machine.
  }, 240_000);
});

describe("sluice keys beside a running embedded server", () => {
  const dir = temporaryDataDir();
  let devnet: DevnetSluice;
  beforeAll(async () => {
    devnet = await startTestDevnet(dir.path);
  });
  afterAll(async () => {
    await devnet?.sluice.stop();
    dir.remove();
  });
  const vaults = (key: string) =>
    fetch(`${devnet.apiUrl}/entities/vaults`, { headers: { "x-api-key": key } }).then((r) => r.status);

  it("goes through the server's admin routes: the key works at once, and is refused at once once revoked", async () => {
    const env = { DATA_DIR: dir.path };
    const created = await runSluice(["keys", "create", "--name", "beside"], env);
    expect(created.code, created.stderr).toBe(0);
    const key = printedKey(created.stdout);
    expect(await vaults(key)).toBe(200);

    const listed = await runSluice(["keys", "list"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^beside\tslk_\S+…\tquotes default, reads default\tcreated \S+\tlive$/m);

    const revoked = await runSluice(["keys", "revoke", "beside"], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await vaults(key)).toBe(401);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("sluice keys on PostgreSQL while a server runs", () => {
  let empty: EmptyPostgresDatabase;
  let database: Database;
  let sluice: Sluice;
  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    // The command migrates the empty database; the server opens it after.
    const migrated = await runSluice(["migrate"], { DATABASE_URL: empty.url });
    expect(migrated.code, migrated.stderr).toBe(0);
    database = await openDatabase({ kind: "postgres", url: empty.url });
    ({ sluice } = await createTestServer(database));
    await sluice.parts.apiKeys.start();
  });
  afterAll(async () => {
    await sluice?.parts.apiKeys.stop();
    await sluice?.http.close();
    await database?.close();
    await empty?.drop();
  });
  const vaults = (key: string) =>
    sluice.http
      .inject({ method: "GET", url: "/api/v1/entities/vaults", headers: { "x-api-key": key } })
      .then((r) => r.statusCode);

  it("writes the table directly; the running server serves the new key and refuses it once revoked", async () => {
    const env = { DATABASE_URL: empty.url };
    const created = await runSluice(["keys", "create", "--name", "pg-wallet", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const { key, record } = JSON.parse(created.stdout);
    expect(record.name).toBe("pg-wallet");
    // Only the hash is stored.
    const [row] = await database.query<{ key_hash: string }>(
      "select key_hash from api_keys where name = $1",
      ["pg-wallet"],
    );
    expect(row!.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(await database.query("select * from api_keys"))).not.toContain(key);
    await eventually(async () => (await vaults(key)) === 200, "the server knows the new key");

    const taken = await runSluice(["keys", "create", "--name", "pg-wallet"], env);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain("An API key named pg-wallet exists");

    const revoked = await runSluice(["keys", "revoke", "pg-wallet"], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    await eventually(async () => (await vaults(key)) === 401, "the server refuses the revoked key", {
      intervalMs: 1,
      timeoutMs: 2000,
    });
    const again = await runSluice(["keys", "revoke", "pg-wallet"], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("No live API key is named pg-wallet");
  });
});

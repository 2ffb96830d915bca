// The limits hold for the venue, not per process (issue 24, item 2), and a key revoked anywhere is refused everywhere
// (item 1): two Sluice replicas on one PostgreSQL database. The fan-out class is counted in the database, so a burst
// spread over both replicas is admitted up to the one limit; each replica's key directory re-reads the keys on the
// table's NOTIFY, so a key revoked through one process gets 401 from every replica as soon as it arrives (measured
// here, and printed). PostgreSQL only: an embedded database has one process, so one replica.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyRepository } from "../../src/api-keys/repository.ts";
import type { Sluice } from "../../src/app/sluice.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { createEmptyPostgresDatabase, type EmptyPostgresDatabase } from "../support/db.ts";
import { eventually } from "../support/gates.ts";
import { createTestServer, unstartedDeployment } from "../support/server.ts";
import { waitForFreshWindow } from "./windows.ts";

const QUOTES_PER_MINUTE = 30;

describe.skipIf(!process.env.TEST_DATABASE_URL)("request limits across replicas (postgres)", () => {
  let empty: EmptyPostgresDatabase;
  const databases: Database[] = [];
  const replicas: Sluice[] = [];

  beforeAll(async () => {
    empty = await createEmptyPostgresDatabase();
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ kind: "postgres", url: empty.url, poolSize: 10 });
      if (i === 0) await migrate(database);
      databases.push(database);
      const { sluice } = await createTestServer(database, {
        deployment: unstartedDeployment(),
        env: { RATE_LIMIT_QUOTES_PER_MINUTE: String(QUOTES_PER_MINUTE), RATE_LIMIT_READS_PER_SECOND: "1000" },
      });
      // Only the key directory: these replicas serve through inject and need nothing else running.
      await sluice.parts.apiKeys.start();
      replicas.push(sluice);
    }
  });
  afterAll(async () => {
    for (const sluice of replicas) await sluice.parts.apiKeys.stop();
    for (const sluice of replicas) await sluice.http.close();
    for (const database of databases) await database.close();
    await empty?.drop();
  });

  const quote = (replica: number, client: string, headers: Record<string, string> = {}) =>
    replicas[replica]!.http.inject({
      method: "POST",
      url: "/api/v1/quote",
      remoteAddress: client,
      headers,
      payload: {},
    });
  const admitted = (responses: LightMyRequestResponse[]) => responses.filter((r) => r.statusCode !== 429);

  it("admits a burst spread over both replicas up to the one limit (within 10 %)", async () => {
    await waitForFreshWindow(databases[0]!, 60_000);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => quote(i % 2, "198.51.100.20")));
    const passed = admitted(responses).length;
    expect(passed).toBeGreaterThanOrEqual(QUOTES_PER_MINUTE * 0.9);
    expect(passed).toBeLessThanOrEqual(QUOTES_PER_MINUTE * 1.1);
    // Each replica admitted part of it, and refused the rest with the same limit.
    for (const replica of [0, 1]) {
      const own = responses.filter((_, i) => i % 2 === replica);
      expect(admitted(own).length).toBeGreaterThan(0);
      expect(own.some((r) => r.statusCode === 429)).toBe(true);
    }
  });

  it("refuses a key revoked through one process on every replica as soon as the notification arrives", async () => {
    const writer = new ApiKeyRepository(databases[0]!.db);
    const { key } = await writer.create({ name: "revoked-everywhere", quotesPerMinute: 1000 }, new Date());
    // Created on one replica's connection, known to both (each one's directory re-read it on NOTIFY).
    for (const replica of [0, 1])
      await eventually(
        async () => (await quote(replica, "198.51.100.21", { "x-api-key": key })).statusCode === 400,
        `replica ${replica} knows the new key`,
      );
    await writer.revoke("revoked-everywhere", new Date());
    const revokedAt = performance.now();
    const refusedAfter: number[] = [];
    for (const replica of [0, 1]) {
      await eventually(
        async () => (await quote(replica, "198.51.100.21", { "x-api-key": key })).statusCode === 401,
        `replica ${replica} refuses the revoked key`,
        { intervalMs: 1 },
      );
      refusedAfter.push(performance.now() - revokedAt);
    }
    process.stdout.write(
      `[limits] revoked key refused by replica A after ${refusedAfter[0]!.toFixed(1)} ms, B after ${refusedAfter[1]!.toFixed(1)} ms\n`,
    );
    // Never admitted again, by either.
    for (const replica of [0, 1])
      expect((await quote(replica, "198.51.100.21", { "x-api-key": key })).statusCode).toBe(401);
  });

  it("divides the read limit among the replicas present, and gives it back when one leaves", async () => {
    const READS_PER_SECOND = 40;
    const writer = new ApiKeyRepository(databases[0]!.db);
    const { key } = await writer.create({ name: "reader", readsPerSecond: READS_PER_SECOND }, new Date());
    const read = (replica: number) =>
      replicas[replica]!.http.inject({
        method: "GET",
        url: "/api/v1/entities/vaults",
        headers: { "x-api-key": key },
      });
    for (const replica of [0, 1])
      await eventually(
        async () => (await read(replica)).statusCode === 200,
        `replica ${replica} knows the key`,
      );
    const presences = replicas.map((sluice) => sluice.parts.replicaPresence!);
    try {
      for (const presence of presences) await presence.start();
      // Each counts both once the other's first mark is in (the later one at its start, the earlier by its next beat).
      await eventually(
        async () => presences.every((presence) => presence.count === 2),
        "both replicas count two",
      );

      const burst = async (spread: number[]) => {
        await waitForFreshWindow(databases[0]!, 1000, 700);
        return Promise.all(Array.from({ length: 120 }, (_, i) => read(spread[i % spread.length]!)));
      };
      const both = await burst([0, 1]);
      const passed = admitted(both).length;
      expect(passed).toBeGreaterThanOrEqual(READS_PER_SECOND * 0.9);
      expect(passed).toBeLessThanOrEqual(READS_PER_SECOND * 1.1);
      // Each refused with the venue's limit and its estimate of what is left.
      const refused = both.find((r) => r.statusCode === 429)!;
      expect(refused.headers["ratelimit-limit"]).toBe(String(READS_PER_SECOND));
      expect(refused.headers["ratelimit-remaining"]).toBe("0");

      // One replica leaves: the other is the venue again, and admits the whole rate alone.
      await presences[1]!.stop();
      await eventually(async () => presences[0]!.count === 1, "the remaining replica counts one");
      const alone = admitted(await burst([0])).length;
      expect(alone).toBeGreaterThanOrEqual(READS_PER_SECOND * 0.9);
      expect(alone).toBeLessThanOrEqual(READS_PER_SECOND * 1.1);
    } finally {
      for (const presence of presences) await presence.stop();
    }
  });
});

// A large vault's receiver list is streamed in keyset pages; the hand-written JSON must still be exactly
// the PartnerPointsByReceiver shape, complete, ordered, and with an exact total.

import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { App } from "../../src/http/server.ts";
import { PointsRepository } from "../../src/points/repository.ts";
import { type PointsByReceiver, PointsByReceiverListSchema } from "../../src/points/schemas.ts";
import { PointsService, type VaultReceiversAnswer } from "../../src/points/service.ts";
import type { PointsRow } from "../../src/points/writer.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";
import { address, loadSnapshot, row } from "./support.ts";

const BIG_VAULT = address("a", 1);
const SMALL_VAULT = address("a", 2);
const RECEIVERS = 20_000;

/** Receiver i holds i × 10^48 + i as a staker; every 7th also holds 1 as an operator. */
function* bigVaultRows(): Generator<PointsRow> {
  for (let i = 1; i <= RECEIVERS; i++) {
    const receiver = address("b", i);
    yield row(BIG_VAULT, receiver, BigInt(i) * 10n ** 48n + BigInt(i));
    if (i % 7 === 0) yield row(BIG_VAULT, receiver, 1n, "operator");
  }
}

function expectedPoints(i: number): bigint {
  return BigInt(i) * 10n ** 48n + BigInt(i) + (i % 7 === 0 ? 1n : 0n);
}

async function collect(answer: VaultReceiversAnswer): Promise<string> {
  if (Buffer.isBuffer(answer)) return answer.toString();
  let text = "";
  for await (const chunk of answer) text += chunk;
  return text;
}

/** The answer's pieces still to be read; a list this large is never kept whole. */
function streamed(answer: VaultReceiversAnswer): AsyncIterable<string> {
  if (Buffer.isBuffer(answer)) throw new Error("expected a streamed answer, got kept bytes");
  return answer;
}

function checkRecord(record: PointsByReceiver, receivers: readonly Address[], points: (i: number) => bigint) {
  expect(record.items).toHaveLength(receivers.length);
  let sum = 0n;
  for (const [position, item] of record.items.entries()) {
    expect(item.receiver_address).toBe(receivers[position]);
    expect(item.points).toBe(points(position + 1).toString());
    sum += BigInt(item.points);
  }
  expect(record.total_points).toBe(sum.toString());
}

describe.each(databaseKinds)("streamed vault receiver list (%s)", (kind) => {
  let database: Database;
  let app: App;
  const receivers = Array.from({ length: RECEIVERS }, (_, i) => address("b", i + 1));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await loadSnapshot(
      database,
      "sluice",
      500,
      [...bigVaultRows(), row(SMALL_VAULT, address("b", 1), 9n)],
      48,
    );
    await loadSnapshot(database, "partner", 400, [row(BIG_VAULT, address("b", 3), 5n)]);
    ({ app } = await createTestServer(database));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("answers every receiver, in order, as valid PartnerPointsByReceiver records", async () => {
    const response = await app.inject(`/api/v1/points/vault/${BIG_VAULT}/current`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const records = PointsByReceiverListSchema.parse(JSON.parse(response.body));
    expect(records.map((record) => [record.points_type, record.last_block])).toEqual([
      ["partner", 400],
      ["sluice", 500],
    ]);
    expect(records[0]!.items).toEqual([{ receiver_address: address("b", 3), points: "5" }]);
    checkRecord(records[1]!, receivers, expectedPoints);
  });

  it("is sent as a stream (chunked), not a buffered body", async () => {
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const response = await fetch(`${url}/api/v1/points/vault/${BIG_VAULT}/current`);
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-length")).toBeNull();
    const records = PointsByReceiverListSchema.parse(await response.json());
    expect(records[1]!.items).toHaveLength(RECEIVERS);
  });

  it("joins keyset pages and their pieces without losing or repeating a receiver, full or not", async () => {
    // 997 leaves a partial last page and a partial last piece per page; 1000 divides 20,000, so the stream ends
    // on an empty page; 50 in pieces of 7 ends each page on a short piece.
    for (const [pageSize, pieceSize] of [
      [997, 100],
      [1_000, 100],
      [50, 7],
    ] as const) {
      const service = new PointsService(new PointsRepository(database), database, new ManualClock(), {
        pageSize,
        pieceSize,
      });
      const text = await collect(await service.vaultByReceiver(BIG_VAULT));
      const records = PointsByReceiverListSchema.parse(JSON.parse(text));
      checkRecord(records[1]!, receivers, expectedPoints);
    }
  });

  it("reads the next page while writing one; a failed read ends the stream, and nobody left waiting is harmless", async () => {
    /**
     * Fails the third page read (the big vault's second page: the first read is the partner type's one-row
     * list), a little later, as a dropped connection would.
     */
    class FailingThirdRead extends PointsRepository {
      reads = 0;
      override async vaultReceiversJsonPage(...args: Parameters<PointsRepository["vaultReceiversJsonPage"]>) {
        this.reads += 1;
        if (this.reads === 3) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error("connection lost");
        }
        return super.vaultReceiversJsonPage(...args);
      }
    }
    const streamWith = (repository: PointsRepository) =>
      new PointsService(repository, database, new ManualClock(), { pageSize: 1_000 }).vaultByReceiver(
        BIG_VAULT,
      );

    // A consumer that keeps reading gets the failure.
    await expect(collect(await streamWith(new FailingThirdRead(database)))).rejects.toThrow(
      "connection lost",
    );

    // A client that goes away while the big vault's first page is written leaves the read of its second page
    // unawaited; that failure must not surface as an unhandled rejection (vitest fails the run on one).
    const repository = new FailingThirdRead(database);
    const chunks = streamed(await streamWith(repository))[Symbol.asyncIterator]();
    // "[", the partner record's head, its item, "]}", the big vault's record head, its first piece.
    for (let i = 0; i < 6; i++) await chunks.next();
    expect(repository.reads).toBe(3);
    await chunks.return?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

// The six points routes over HTTP, on both databases: shapes (strict schemas), snapshot choice, exact
// totals, and every partner error code.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Database } from "../../src/db/client.ts";
import { PartnerErrorSchema } from "../../src/http/errors.ts";
import type { App } from "../../src/http/server.ts";
import {
  PointsByReceiverListSchema,
  PointsByReceiverTypeListSchema,
  PointsByVaultListSchema,
} from "../../src/points/schemas.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";
import { address, loadSnapshot, registerVault, row } from "./support.ts";

const E48 = 10n ** 48n;
const MAX_SAFE = "9007199254740991";

const V1 = address("a", 1);
const V2 = address("a", 2);
const REGISTRY_ONLY_VAULT = address("a", 3);
const UNKNOWN_VAULT = address("a", 4);
const R1 = address("b", 1);
const R2 = address("b", 2);
const R3 = address("b", 3);
const NOBODY = address("b", 9);

// 48-decimal values far beyond 2^64, so a double or an int64 anywhere on the path would show.
const S = {
  r1v1: 123_456_789n * E48 + 1n,
  r1v1op: 7n * E48 + 3n,
  r2v1: 987_654_321_987n * E48 + 987_654_321n,
  r2v2: 5n * E48,
  r3v2: 1n,
};

function sluiceRows(scale: bigint) {
  return [
    row(V1, R1, S.r1v1 * scale),
    row(V1, R1, S.r1v1op * scale, "operator"),
    row(V1, R2, S.r2v1 * scale),
    row(V2, R2, S.r2v2 * scale, "network"),
    row(V2, R3, S.r3v2 * scale),
  ];
}

function alphaRows(scale: bigint) {
  return [row(V1, R1, 10n * scale), row(V2, R3, 20n * scale, "operator")];
}

async function getJson<T extends z.ZodType>(app: App, url: string, schema: T): Promise<z.infer<T>> {
  const response = await app.inject(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  return schema.parse(response.json());
}

async function expectPartnerError(app: App, url: string, status: number, errorCode: string) {
  const response = await app.inject(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
  const body = PartnerErrorSchema.parse(response.json());
  expect(body.errorCode, url).toBe(errorCode);
}

const lastBlocks = (records: ReadonlyArray<{ points_type: string; last_block: number }>) =>
  Object.fromEntries(records.map((record) => [record.points_type, record.last_block]));

describe.each(databaseKinds)("points routes (%s)", (kind) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // sluice every 100 blocks, alpha at 150 and 250, beta once at 1000: per-type choices differ.
    await loadSnapshot(database, "sluice", 100, sluiceRows(1n), 48);
    await loadSnapshot(database, "sluice", 200, sluiceRows(2n), 48);
    await loadSnapshot(database, "sluice", 300, sluiceRows(3n), 48);
    await loadSnapshot(database, "alpha", 150, alphaRows(1n));
    await loadSnapshot(database, "alpha", 250, alphaRows(2n));
    await loadSnapshot(database, "beta", 1000, [row(V1, R2, 42n)], 6);
    await registerVault(database, REGISTRY_ONLY_VAULT);
    ({ app } = await createTestServer(database));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  describe("GET /points/total/current and /points/total/{blockNumber}", () => {
    it("answers every vault's total per points type at each type's newest snapshot", async () => {
      const records = await getJson(app, "/api/v1/points/total/current", PointsByVaultListSchema);
      expect(records).toEqual([
        {
          points_type: "alpha",
          last_block: 250,
          total_points: "60",
          items: [
            { vault_address: V1, points: "20" },
            { vault_address: V2, points: "40" },
          ],
        },
        {
          points_type: "beta",
          last_block: 1000,
          total_points: "42",
          items: [{ vault_address: V1, points: "42" }],
        },
        {
          points_type: "sluice",
          last_block: 300,
          total_points: (3n * (S.r1v1 + S.r1v1op + S.r2v1 + S.r2v2 + S.r3v2)).toString(),
          items: [
            { vault_address: V1, points: (3n * (S.r1v1 + S.r1v1op + S.r2v1)).toString() },
            { vault_address: V2, points: (3n * (S.r2v2 + S.r3v2)).toString() },
          ],
        },
      ]);
    });

    it("keeps total_points the exact sum of the items, beyond 2^64", async () => {
      const records = await getJson(app, "/api/v1/points/total/current", PointsByVaultListSchema);
      for (const record of records) {
        const sum = record.items.reduce((total, item) => total + BigInt(item.points), 0n);
        expect(record.total_points).toBe(sum.toString());
      }
      const sluice = records.find((record) => record.points_type === "sluice")!;
      expect(BigInt(sluice.total_points) > 2n ** 64n).toBe(true);
    });

    it("chooses per points type the nearest snapshot, the earlier one on a tie", async () => {
      const cases: Array<[string, Record<string, number>]> = [
        ["1", { alpha: 150, beta: 1000, sluice: 100 }],
        ["150", { alpha: 150, beta: 1000, sluice: 100 }], // sluice: 100 and 200 tie → 100
        ["199", { alpha: 150, beta: 1000, sluice: 200 }], // alpha: 150 and 250 → 150 is nearer
        ["200", { alpha: 150, beta: 1000, sluice: 200 }], // alpha: tie 150/250 → 150
        ["201", { alpha: 250, beta: 1000, sluice: 200 }],
        ["250", { alpha: 250, beta: 1000, sluice: 200 }], // sluice: tie 200/300 → 200
        ["251", { alpha: 250, beta: 1000, sluice: 300 }],
        [MAX_SAFE, { alpha: 250, beta: 1000, sluice: 300 }],
      ];
      for (const [block, expected] of cases) {
        const records = await getJson(app, `/api/v1/points/total/${block}`, PointsByVaultListSchema);
        expect(lastBlocks(records), `block ${block}`).toEqual(expected);
      }
      const at150 = await getJson(app, "/api/v1/points/total/150", PointsByVaultListSchema);
      expect(at150.find((record) => record.points_type === "sluice")!.total_points).toBe(
        (S.r1v1 + S.r1v1op + S.r2v1 + S.r2v2 + S.r3v2).toString(),
      );
    });
  });

  describe("GET /points/receiver/{address}/current", () => {
    it("answers the receiver's points per vault, receiver types added up", async () => {
      const records = await getJson(
        app,
        `/api/v1/points/receiver/${R1.toUpperCase().replace("0X", "0x")}/current`,
        PointsByVaultListSchema,
      );
      expect(records).toEqual([
        {
          points_type: "alpha",
          last_block: 250,
          total_points: "20",
          items: [{ vault_address: V1, points: "20" }],
        },
        {
          points_type: "sluice",
          last_block: 300,
          total_points: (3n * (S.r1v1 + S.r1v1op)).toString(),
          items: [{ vault_address: V1, points: (3n * (S.r1v1 + S.r1v1op)).toString() }],
        },
      ]);
    });

    it("lists several vaults in address order with an exact total", async () => {
      const records = await getJson(app, `/api/v1/points/receiver/${R2}/current`, PointsByVaultListSchema);
      expect(records.map((record) => record.points_type)).toEqual(["beta", "sluice"]);
      const sluice = records[1]!;
      expect(sluice.items).toEqual([
        { vault_address: V1, points: (3n * S.r2v1).toString() },
        { vault_address: V2, points: (3n * S.r2v2).toString() },
      ]);
      expect(sluice.total_points).toBe((3n * (S.r2v1 + S.r2v2)).toString());
    });

    it("answers [] for a receiver without points", async () => {
      expect(
        await getJson(app, `/api/v1/points/receiver/${NOBODY}/current`, PointsByVaultListSchema),
      ).toEqual([]);
    });
  });

  describe("GET /points/vault/{address}/current", () => {
    it("answers the vault's points per receiver at each type's newest snapshot", async () => {
      const records = await getJson(app, `/api/v1/points/vault/${V2}/current`, PointsByReceiverListSchema);
      expect(records).toEqual([
        {
          points_type: "alpha",
          last_block: 250,
          total_points: "40",
          items: [{ receiver_address: R3, points: "40" }],
        },
        {
          points_type: "sluice",
          last_block: 300,
          total_points: (3n * (S.r2v2 + S.r3v2)).toString(),
          items: [
            { receiver_address: R2, points: (3n * S.r2v2).toString() },
            { receiver_address: R3, points: (3n * S.r3v2).toString() },
          ],
        },
      ]);
    });

    it("adds up a receiver's receiver types within the vault", async () => {
      const records = await getJson(app, `/api/v1/points/vault/${V1}/current`, PointsByReceiverListSchema);
      const sluice = records.find((record) => record.points_type === "sluice")!;
      expect(sluice.items[0]).toEqual({
        receiver_address: R1,
        points: (3n * (S.r1v1 + S.r1v1op)).toString(),
      });
      const sum = sluice.items.reduce((total, item) => total + BigInt(item.points), 0n);
      expect(sluice.total_points).toBe(sum.toString());
    });

    it("answers [] for a vault the registry knows but no snapshot has", async () => {
      const records = await getJson(
        app,
        `/api/v1/points/vault/${REGISTRY_ONLY_VAULT}/current`,
        PointsByReceiverListSchema,
      );
      expect(records).toEqual([]);
    });
  });

  describe("GET /points/vault/{address}/{blockNumber}", () => {
    it("answers the vault's points per receiver type at the nearest snapshots", async () => {
      const records = await getJson(app, `/api/v1/points/vault/${V1}/150`, PointsByReceiverTypeListSchema);
      expect(records).toEqual([
        {
          points_type: "alpha",
          last_block: 150,
          total_points: "10",
          items: [{ receiver_type: "staker", points: "10" }],
        },
        {
          points_type: "beta",
          last_block: 1000,
          total_points: "42",
          items: [{ receiver_type: "staker", points: "42" }],
        },
        {
          points_type: "sluice",
          last_block: 100,
          total_points: (S.r1v1 + S.r1v1op + S.r2v1).toString(),
          items: [
            { receiver_type: "operator", points: S.r1v1op.toString() },
            { receiver_type: "staker", points: (S.r1v1 + S.r2v1).toString() },
          ],
        },
      ]);
    });

    it("leaves out points types without points in the vault", async () => {
      const records = await getJson(
        app,
        `/api/v1/points/vault/${V2}/${MAX_SAFE}`,
        PointsByReceiverTypeListSchema,
      );
      expect(records.map((record) => [record.points_type, record.last_block])).toEqual([
        ["alpha", 250],
        ["sluice", 300],
      ]);
      expect(records[1]!.items).toEqual([
        { receiver_type: "network", points: (3n * S.r2v2).toString() },
        { receiver_type: "staker", points: (3n * S.r3v2).toString() },
      ]);
    });

    it("answers [] for a vault the registry knows but no snapshot has", async () => {
      const records = await getJson(
        app,
        `/api/v1/points/vault/${REGISTRY_ONLY_VAULT}/5`,
        PointsByReceiverTypeListSchema,
      );
      expect(records).toEqual([]);
    });
  });

  describe("errors", () => {
    it("answers 400 anErrorOccurred for a bad address", async () => {
      for (const bad of ["0x123", "zz", `${V1}0`, `0x${"g".repeat(40)}`, V1.slice(2), "%20"]) {
        await expectPartnerError(app, `/api/v1/points/receiver/${bad}/current`, 400, "anErrorOccurred");
        await expectPartnerError(app, `/api/v1/points/vault/${bad}/current`, 400, "anErrorOccurred");
        await expectPartnerError(app, `/api/v1/points/vault/${bad}/100`, 400, "anErrorOccurred");
      }
    });

    it("answers 400 anErrorOccurred for a bad block number", async () => {
      for (const bad of [
        "0",
        "9007199254740992",
        "abc",
        "-1",
        "1.5",
        "1e3",
        "0x10",
        "99999999999999999999999",
      ]) {
        await expectPartnerError(app, `/api/v1/points/total/${bad}`, 400, "anErrorOccurred");
        await expectPartnerError(app, `/api/v1/points/vault/${V1}/${bad}`, 400, "anErrorOccurred");
      }
    });

    it("answers 404 noResultsFound for a vault neither the registry nor any snapshot knows", async () => {
      await expectPartnerError(app, `/api/v1/points/vault/${UNKNOWN_VAULT}/current`, 404, "noResultsFound");
      await expectPartnerError(app, `/api/v1/points/vault/${UNKNOWN_VAULT}/100`, 404, "noResultsFound");
    });

    it("answers 404 pageNotFound for unknown paths under /points", async () => {
      for (const path of [
        "/points",
        "/points/total",
        `/points/receiver/${R1}`,
        `/points/vault/${V1}/1/2`,
        "/points/nope",
      ]) {
        await expectPartnerError(app, `/api/v1${path}`, 404, "pageNotFound");
      }
    });

    it("answers 410 on the deprecated receiver-at-block route, whatever its parameters", async () => {
      for (const path of [
        `${R1}/100`,
        `${R1}/0`,
        `${R1}/abc`,
        "zz/100",
        "zz/abc",
        `${NOBODY}/${MAX_SAFE}`,
        "%20/%20",
      ]) {
        await expectPartnerError(app, `/api/v1/points/receiver/${path}`, 410, "pageNotFound");
      }
    });
  });
});

describe.each(databaseKinds)("points routes without data (%s)", (kind) => {
  let database: Database;
  let app: App;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await registerVault(database, REGISTRY_ONLY_VAULT);
    ({ app } = await createTestServer(database, { clock }));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("answers 404 noData on every data route before any snapshot exists", async () => {
    for (const path of [
      "/points/total/current",
      "/points/total/100",
      `/points/receiver/${R1}/current`,
      `/points/vault/${REGISTRY_ONLY_VAULT}/current`,
      `/points/vault/${REGISTRY_ONLY_VAULT}/100`,
      `/points/vault/${UNKNOWN_VAULT}/current`,
    ]) {
      await expectPartnerError(app, `/api/v1${path}`, 404, "noData");
    }
  });

  it("still validates first and still retires the deprecated route", async () => {
    await expectPartnerError(app, "/api/v1/points/total/0", 400, "anErrorOccurred");
    await expectPartnerError(app, "/api/v1/points/receiver/zz/current", 400, "anErrorOccurred");
    await expectPartnerError(app, `/api/v1/points/receiver/${R1}/100`, 410, "pageNotFound");
  });

  it("serves a snapshot once its generation is seen, and answers 500 ooops when storage fails", async () => {
    await loadSnapshot(database, "sluice", 10, [row(V1, R1, 5n)], 48);
    clock.advance(60_000);
    const records = await getJson(app, "/api/v1/points/total/current", PointsByVaultListSchema);
    expect(records).toEqual([
      {
        points_type: "sluice",
        last_block: 10,
        total_points: "5",
        items: [{ vault_address: V1, points: "5" }],
      },
    ]);
    await database.query("alter table points_balances rename to points_balances_gone");
    try {
      await expectPartnerError(app, `/api/v1/points/receiver/${R1}/current`, 500, "ooops");
    } finally {
      await database.query("alter table points_balances_gone rename to points_balances");
    }
  });

  it("answers a receiver from its cache until a new snapshot changes the dataset", async () => {
    const before = await getJson(app, `/api/v1/points/receiver/${R1}/current`, PointsByVaultListSchema);
    expect(before.map((record) => [record.last_block, record.total_points])).toEqual([[10, "5"]]);
    await loadSnapshot(database, "sluice", 20, [row(V1, R1, 7n)], 48);
    clock.advance(60_000);
    const after = await getJson(app, `/api/v1/points/receiver/${R1}/current`, PointsByVaultListSchema);
    expect(after.map((record) => [record.last_block, record.total_points])).toEqual([[20, "7"]]);
  });

  it("answers a vault from its kept bytes until a new snapshot changes the dataset", async () => {
    const url = `/api/v1/points/vault/${V1}/current`;
    const read = async () => {
      const response = await app.inject(url);
      expect(response.statusCode, response.body).toBe(200);
      const records = PointsByReceiverListSchema.parse(response.json());
      return {
        kept: response.headers["content-length"] !== undefined,
        points: records.map((record) => [record.last_block, record.items[0]?.points]),
      };
    };
    // Streamed the first time (no length known ahead), then sent from the bytes kept: no database read.
    expect(await read()).toEqual({ kept: false, points: [[20, "7"]] });
    expect(await read()).toEqual({ kept: true, points: [[20, "7"]] });
    // Another replica's import: seen once the generation is read again.
    await loadSnapshot(database, "sluice", 30, [row(V1, R1, 9n), row(V1, R2, 1n)], 48);
    clock.advance(60_000);
    expect(await read()).toEqual({ kept: false, points: [[30, "9"]] });
    expect(await read()).toEqual({ kept: true, points: [[30, "9"]] });
  });
});

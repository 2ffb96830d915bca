// Random path segments on every points route never produce a 500, and every answer is either the route's
// success shape or the partner envelope.
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
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";
import { address, loadSnapshot, row } from "./support.ts";

const V1 = address("a", 1);
const R1 = address("b", 1);
const SAMPLES_PER_ROUTE = 150;

const ROUTES: Array<{ template: (a: string, b: string) => string; success: z.ZodType }> = [
  { template: (a) => `/points/receiver/${a}/current`, success: PointsByVaultListSchema },
  { template: (a) => `/points/vault/${a}/current`, success: PointsByReceiverListSchema },
  { template: (a, b) => `/points/vault/${a}/${b}`, success: PointsByReceiverTypeListSchema },
  { template: () => "/points/total/current", success: PointsByVaultListSchema },
  { template: (_a, b) => `/points/total/${b}`, success: PointsByVaultListSchema },
  { template: (a, b) => `/points/receiver/${a}/${b}`, success: PointsByVaultListSchema },
  { template: (a, b) => `/points/${a}/${b}`, success: PointsByVaultListSchema },
  { template: (a, b) => `/points/total/${a}/${b}`, success: PointsByVaultListSchema },
];

/** Seeded, so a failure names a reproducible input. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomSegment(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const hex = (length: number) => Array.from({ length }, () => pick([..."0123456789abcdefABCDEF"])).join("");
  const kind = Math.floor(random() * 12);
  switch (kind) {
    case 0:
      return `0x${hex(40)}`;
    case 1:
      return `0x${hex(Math.floor(random() * 80))}`;
    case 2:
      return String(Math.floor(random() * 10 ** Math.floor(random() * 25)));
    case 3:
      return pick([
        "0",
        "-1",
        "1.5",
        "1e3",
        "9007199254740991",
        "9007199254740992",
        "00000001",
        "+1",
        " 1",
      ]).replace(" ", "%20");
    case 4:
      // No dot segments: a URL parser resolves them, so the request would leave /points altogether.
      return pick(["current", "CURRENT", "%00", "%ff", "%", "%zz", "%2F", "%3F", "null", "undefined"]);
    case 5:
      return encodeURIComponent(String.fromCodePoint(Math.floor(random() * 0x10ffff) || 1));
    case 6:
      return "x".repeat(Math.floor(random() * 700));
    case 7:
      return V1;
    case 8:
      return R1.toUpperCase();
    default: {
      const alphabet = "abcXYZ019-_~!$&'()*+,;=:@%";
      return Array.from({ length: 1 + Math.floor(random() * 20) }, () => pick([...alphabet])).join("");
    }
  }
}

describe.each(databaseKinds)("points route fuzzing (%s)", (kind) => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await loadSnapshot(database, "sluice", 100, [row(V1, R1, 10n ** 60n)], 48);
    ({ app } = await createTestServer(database));
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("never answers 500 to random path segments", async () => {
    const random = mulberry32(0xf022);
    const statuses = new Map<number, number>();
    for (const route of ROUTES) {
      for (let sample = 0; sample < SAMPLES_PER_ROUTE; sample++) {
        const url = `/api/v1${route.template(randomSegment(random), randomSegment(random))}`;
        const response = await app.inject({ method: "GET", url });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        expect(response.statusCode, `${url} → ${response.body}`).toBeLessThan(500);
        const body = response.json();
        const schema = response.statusCode === 200 ? route.success : PartnerErrorSchema;
        expect(schema.safeParse(body).success, `${url} → ${response.body}`).toBe(true);
      }
    }
    // The generator reaches the interesting answers, not only 404s.
    for (const status of [200, 400, 404, 410])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  });
});

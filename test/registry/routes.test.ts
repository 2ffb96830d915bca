import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Database } from "../../src/db/client.ts";
import { bumpGeneration } from "../../src/db/generations.ts";
import { PartnerErrorSchema } from "../../src/http/errors.ts";
import type { App } from "../../src/http/server.ts";
import type { Overlay } from "../../src/registry/overlay.ts";
import type { ImportReport } from "../../src/registry/report.ts";
import { readApprovedVaults } from "../../src/registry/repository.ts";
import {
  PartnerCuratorListSchema,
  PartnerEntityListSchema,
  PartnerVaultListSchema,
} from "../../src/registry/schemas.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { importRegistry } from "../support/registry.ts";
import { createTestServer } from "../support/server.ts";
import { FIXTURE_TREE, fixtureOverlay } from "./support.ts";

/** Parses a body with a strict wire schema; the output must equal the input (lowercase, nothing dropped). */
function checkBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`response does not match the wire schema: ${parsed.error.message}`);
  expect(parsed.data).toEqual(body);
  return parsed.data;
}

const sorted = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe.each(databaseKinds)("registry endpoints on %s", (kind) => {
  let database: Database;
  let app: App;
  const clock = new ManualClock();
  let overlay: Overlay;
  let report: ImportReport;

  // One generation check per second: moving the clock makes the server see a new import at once.
  const get = (path: string) => {
    clock.advance(1000);
    return app.inject({ method: "GET", url: `/api/v1${path}` });
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ app } = await createTestServer(database, { clock }));
    overlay = await fixtureOverlay();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("answers empty lists before anything is imported", async () => {
    for (const path of [
      "/entities/networks",
      "/entities/vaults",
      "/entities/operators",
      "/entities/curators",
    ]) {
      const response = await get(path);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
  });

  it("imports the public tree with its overlay", async () => {
    report = await importRegistry(database, { registryDir: FIXTURE_TREE, overlay });
    expect(report.kinds.vaults.imported).toBe(159);
    expect(report.overlay.applied).toBe(159);
    expect(report.overlay.withoutOverlay).toEqual([]);
    expect(report.overlay.approved).toBe([...overlay.values()].filter((v) => v.approved).length);
  });

  it("GET /entities/networks: every network, sorted, schema-exact", async () => {
    const response = await get("/entities/networks");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const networks = checkBody(PartnerEntityListSchema, response.json());
    expect(networks).toHaveLength(21);
    expect(networks.map((n) => n.address)).toEqual(sorted(networks.map((n) => n.address)));
    expect(Object.keys(networks[0]!)).toEqual(["address", "meta"]);
  });

  it("GET /entities/operators: every operator, lowercased, without unknown keys", async () => {
    const response = await get("/entities/operators");
    expect(response.statusCode).toBe(200);
    const operators = checkBody(PartnerEntityListSchema, response.json());
    expect(operators).toHaveLength(121);
    expect(operators.map((o) => o.address)).toEqual(sorted(operators.map((o) => o.address)));
    const a41 = operators.find((o) => o.address === "0x93fda90d946243b6a1823d24344d0b8f8ed87edb");
    expect(a41?.meta.name).toBeDefined();
    expect(a41?.meta).not.toHaveProperty("website");
  });

  it("GET /entities/vaults: approved vaults only, with the overlay's on-chain fields", async () => {
    const response = await get("/entities/vaults");
    expect(response.statusCode).toBe(200);
    const vaults = checkBody(PartnerVaultListSchema, response.json());
    const approved = [...overlay.entries()].filter(([, v]) => v.approved).map(([address]) => address);
    expect(approved.length).toBeGreaterThan(100);
    expect(approved.length).toBeLessThan(159);
    expect(vaults.map((v) => v.address)).toEqual(sorted(approved));

    const keyrock = "0x007e0b8e99c6134e81a1eaae754460e3202cb671";
    const onChain = overlay.get(keyrock)!;
    expect(onChain.approved).toBe(true);
    const served = vaults.find((v) => v.address === keyrock);
    expect(served).toEqual({
      address: keyrock,
      vaultType: onChain.vaultType,
      collateral: onChain.collateral,
      curatorId: "keyrock",
      totalSupply: onChain.totalSupply.toString(),
      tvl: onChain.tvl,
      meta: expect.objectContaining({ name: "Keyrock Flagship USDC" }),
    });
    expect(Object.keys(served!)).toEqual([
      "address",
      "vaultType",
      "collateral",
      "curatorId",
      "totalSupply",
      "tvl",
      "meta",
    ]);
    const unapproved = [...overlay.entries()].find(([, v]) => !v.approved)![0];
    expect(vaults.find((v) => v.address === unapproved)).toBeUndefined();
    // Vaults without a curatorId carry no such key at all.
    expect(vaults.some((v) => !("curatorId" in v))).toBe(true);
    for (const vault of vaults) {
      expect(typeof vault.tvl).toBe("number");
      expect(vault.totalSupply).toMatch(/^\d+$/);
    }
  });

  it("GET /entities/curators: every curator with its approved vaults, sorted", async () => {
    const [curatorsResponse, vaultsResponse] = [
      await get("/entities/curators"),
      await get("/entities/vaults"),
    ];
    expect(curatorsResponse.statusCode).toBe(200);
    const curators = checkBody(PartnerCuratorListSchema, curatorsResponse.json());
    const vaults = checkBody(PartnerVaultListSchema, vaultsResponse.json());
    expect(curators).toHaveLength(19);
    expect(curators.map((c) => c.id)).toEqual(sorted(curators.map((c) => c.id)));
    for (const curator of curators) {
      expect(curator.vaults).toEqual(vaults.filter((v) => v.curatorId === curator.id).map((v) => v.address));
    }
    expect(curators.find((c) => c.id === "p2p-org")?.vaults).toEqual([]);
    expect(curators.find((c) => c.id === "re7-labs")?.vaults.length).toBeGreaterThan(0);
    expect(Object.keys(curators[0]!)).toEqual(["id", "meta", "vaults"]);
  });

  it("serves the stored registry losslessly as pure-ASCII JSON", async () => {
    const response = await get("/entities/vaults");
    expect(response.body).toMatch(/^[\x20-\x7e]*$/);
    expect(response.body).toContain("\\u2019");
    const served = response.json();
    expect(JSON.stringify(served)).toMatch(/[\u0080-\uffff]/);
    expect(served).toEqual(PartnerVaultListSchema.parse(await readApprovedVaults(database)));
  });

  it("serves the same bytes again, ignoring query strings and a trailing slash", async () => {
    const first = await get("/entities/vaults");
    const again = await get("/entities/vaults/?unknown=1");
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
  });

  it("varies a list by Origin and Accept-Encoding both, for a browser's request", async () => {
    const answer = await app.inject({
      url: "/api/v1/entities/vaults",
      headers: { origin: "https://wallet.example", "accept-encoding": "gzip" },
    });
    expect(answer.headers["access-control-allow-origin"]).toBe("https://wallet.example");
    const vary = String(answer.headers.vary)
      .split(",")
      .map((field) => field.trim().toLowerCase());
    expect(vary).toEqual(expect.arrayContaining(["origin", "accept-encoding"]));
  });

  it("tags each list with an ETag and answers 304 to a client that has it", async () => {
    const first = await get("/entities/curators");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.vary).toContain("accept-encoding");
    expect((await get("/entities/curators")).headers.etag).toBe(etag);
    expect((await get("/entities/networks")).headers.etag).not.toBe(etag);

    clock.advance(1000);
    const cached = await app.inject({
      url: "/api/v1/entities/curators",
      headers: { "if-none-match": `"x", ${etag}` },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe("");
    const stale = await app.inject({
      url: "/api/v1/entities/curators",
      headers: { "if-none-match": '"other"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it("compresses with the encoding the client prefers, the same bytes inside", async () => {
    const plain = await get("/entities/vaults");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const request = (acceptEncoding: string) =>
      app.inject({ url: "/api/v1/entities/vaults", headers: { "accept-encoding": acceptEncoding } });

    const br = await request("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gzip = await request("gzip;q=1, br;q=0.5");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    for (const identity of ["identity", "br;q=0, gzip;q=0", "deflate"]) {
      const response = await request(identity);
      expect(response.headers["content-encoding"], identity).toBeUndefined();
      expect(response.body).toBe(plain.body);
    }
    expect((await request("*")).headers["content-encoding"]).toBe("br");
  });

  it("answers unknown paths under /entities with 404 pageNotFound", async () => {
    for (const path of [
      "/entities",
      "/entities/tokens",
      "/entities/vaults/0x007e0b8e99c6134e81a1eaae754460e3202cb671",
      "/entities/networks/extra/segments",
    ]) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(checkBody(PartnerErrorSchema, response.json())).toEqual({
        errorCode: "pageNotFound",
        errorMessage: expect.any(String),
      });
    }
    const post = await app.inject({ method: "POST", url: "/api/v1/entities/vaults", payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ errorCode: "pageNotFound" });
  });

  it("serves a re-imported registry once the server sees the new generation", async () => {
    const before = (await get("/entities/vaults")).headers.etag;
    const other = await fixtureOverlay(7);
    await importRegistry(database, { registryDir: FIXTURE_TREE, overlay: other });
    const response = await get("/entities/vaults");
    expect(response.headers.etag).not.toBe(before);
    const vaults = checkBody(PartnerVaultListSchema, response.json());
    const approved = [...other.entries()].filter(([, v]) => v.approved).map(([address]) => address);
    expect(vaults.map((v) => v.address)).toEqual(sorted(approved));
    expect(vaults.map((v) => v.tvl)).toEqual(
      sorted(approved).map((address) => other.get(address as never)!.tvl),
    );
  });

  it("documents every registry route with its wire schema and the partner error", async () => {
    const document = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    const expected = {
      "/entities/networks": "PartnerEntity",
      "/entities/vaults": "PartnerVault",
      "/entities/operators": "PartnerEntity",
      "/entities/curators": "PartnerCurator",
    };
    for (const [path, item] of Object.entries(expected)) {
      const operation = document.paths[path]?.get;
      expect(operation, path).toBeDefined();
      expect(operation.tags).toEqual(["registries"]);
      const ok = operation.responses["200"].content["application/json"].schema;
      expect(ok.type).toBe("array");
      expect(ok.items.$ref).toBe(`#/components/schemas/${item}`);
      expect(operation.responses["500"].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/PartnerError",
      );
    }
    const vault = document.components.schemas.PartnerVault;
    expect(vault.additionalProperties).toBe(false);
    expect(vault.required).toEqual(["address", "vaultType", "collateral", "totalSupply", "tvl", "meta"]);
    expect(document.components.schemas.Metadata.additionalProperties).toBe(false);
  });

  it("answers 500 ooops in the partner envelope when the registry cannot be read", async () => {
    await database.query("drop table registry_curators");
    await bumpGeneration(database.db, "registry");
    const response = await get("/entities/curators");
    expect(response.statusCode).toBe(500);
    expect(checkBody(PartnerErrorSchema, response.json())).toEqual({
      errorCode: "ooops",
      errorMessage: expect.any(String),
    });
  });
});

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import type { Lifecycle } from "../../src/http/lifecycle.ts";
import type { App } from "../../src/http/server.ts";
import { BUNDLED_LOGO_DIR } from "../../src/solvers/logos.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase } from "../support/db.ts";
import { createTestServer } from "../support/server.ts";

describe("health and solver logos", () => {
  let database: Database;
  let app: App;
  let lifecycle: Lifecycle;
  const clock = new ManualClock(Date.UTC(2026, 10, 25, 12, 0, 0, 123));

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const server = await createTestServer(database, { clock });
    app = server.app;
    lifecycle = server.sluice.parts.lifecycle;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it("serves a bundled logo under its digest name, cacheable for a year, with an ETag", async () => {
    const bytes = readFileSync(`${BUNDLED_LOGO_DIR}/sluice-alpha.png`);
    const digest = createHash("sha256").update(bytes).digest("hex");
    const response = await app.inject({ url: `/api/v1/solver-logos/sluice-alpha-${digest}.png` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/png");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers.etag).toBe(`"${digest}"`);
    expect(response.rawPayload.equals(bytes)).toBe(true);

    const revalidated = await app.inject({
      url: `/api/v1/solver-logos/sluice-alpha-${digest}.png`,
      headers: { "if-none-match": `"${digest}"` },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it.each([
    "sluice-alpha.png",
    `sluice-alpha-${"0".repeat(64)}.png`,
    "..%2F..%2Fpackage.json",
    "..%2F..%2F..%2Fassets%2Fsolver-logos%2Fsluice-alpha.png",
    // A bare "%2e%2e" segment is resolved as ".." by URL parsing before it reaches the router (to /api/v1/, the docs
    // redirect); encoded dots inside one segment reach the logo route as they are.
    "%2e%2e%2Fpackage.json",
    "%2e%2e%2F%2e%2e%2Fassets%2Fsolver-logos%2Fsluice-alpha.png",
    "x".repeat(300),
  ])("answers 404 NOT_FOUND for %s", async (name) => {
    const response = await app.inject({ url: `/api/v1/solver-logos/${name}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("NOT_FOUND");
  });

  it("reports ok, then draining once shutdown starts, each with the injected clock's ISO 8601 timestamp", async () => {
    const ok = await app.inject({ url: "/api/v1/health" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: "ok", timestamp: "2026-11-25T12:00:00.123Z" });
    clock.advance(1000);
    lifecycle.startDraining();
    const draining = await app.inject({ url: "/api/v1/health" });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: "draining", timestamp: "2026-11-25T12:00:01.123Z" });
  });
});

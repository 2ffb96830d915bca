// A request's logger is made at its first line (src/http/request-logger.ts): a request that writes nothing makes no
// child of the server's logger, and every line written carries the request id, whichever way it is written.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DeferredChildLogger } from "../../src/http/request-logger.ts";
import type { App } from "../../src/http/server.ts";
import { createTestDatabase } from "../support/db.ts";
import { capturingLogger } from "../support/log-lines.ts";
import { createTestServer } from "../support/server.ts";

describe("a request's logger", () => {
  it("makes the child at the first line written, with the request's bindings, and never for a line below the level", () => {
    const { logger, lines } = capturingLogger("info");
    const child = vi.spyOn(logger, "child");
    const deferred = new DeferredChildLogger(logger, { requestId: "r-1" }, {});
    expect(deferred.isLevelEnabled("debug")).toBe(false);
    expect(deferred.isLevelEnabled("info")).toBe(true);
    expect(deferred.level).toBe("info");
    deferred.debug({ skipped: true }, "below the level");
    expect(child).not.toHaveBeenCalled();
    deferred.info({ route: "/x" }, "request");
    deferred.error(new Error("boom"), "failed");
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { requestId: "r-1", route: "/x", msg: "request", level: 30 },
      { requestId: "r-1", msg: "failed", level: 50, err: { message: "boom" } },
    ]);
    expect(deferred.bindings()).toEqual({ requestId: "r-1" });
  });

  it("keeps a level of its own when Fastify gives one (a route's logLevel)", () => {
    const { logger, lines } = capturingLogger("info");
    const deferred = new DeferredChildLogger(logger, { requestId: "r-2" }, { level: "debug" });
    expect(deferred.isLevelEnabled("debug")).toBe(true);
    deferred.debug("seen at debug");
    expect(lines).toMatchObject([{ requestId: "r-2", msg: "seen at debug" }]);
  });

  describe("on the server", () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let app: App;
    const { logger, lines } = capturingLogger("info");

    beforeAll(async () => {
      database = await createTestDatabase("pglite");
      ({ app } = await createTestServer(database, { logger }));
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it("makes no child for a read logged at debug, and one for a request whose line is written", async () => {
      const child = vi.spyOn(logger, "child");
      const routine = await app.inject({ url: "/api/v1/entities/networks" });
      expect(routine.statusCode).toBe(200);
      expect(child).not.toHaveBeenCalled();
      const written = await app.inject({ url: "/api/v1/nowhere" });
      expect(child).toHaveBeenCalledTimes(1);
      expect(lines.filter((line) => line.msg === "request")).toEqual([
        expect.objectContaining({
          requestId: written.headers["x-request-id"],
          status: 404,
          route: "(unmatched)",
        }),
      ]);
      child.mockRestore();
    });
  });
});

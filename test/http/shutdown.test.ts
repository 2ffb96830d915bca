// Graceful shutdown: /health turns 503, in-flight requests finish, the listener closes, exit code 0.
import { spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { readEnv } from "../../src/config/env.ts";
import { silentLogger } from "../../src/logger.ts";
import { exitOnSignals, startService } from "../../src/service.ts";
import { createTestDatabase } from "../support/db.ts";

describe("graceful shutdown", () => {
  const tempDirs: string[] = [];
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("drains on SIGTERM: health says draining, the slow request completes, exit 0", async () => {
    let releaseSlow: () => void = () => {};
    let markStarted: () => void = () => {};
    const slowStarted = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const slowRoute = async (app: FastifyInstance) => {
      app.get("/test-slow", async () => {
        markStarted();
        await new Promise<void>((resolve) => {
          releaseSlow = resolve;
        });
        return { done: true };
      });
    };
    const serviceOptions: Parameters<typeof startService>[0] = {
      env: readEnv({ PORT: "0", HOST: "127.0.0.1", SHUTDOWN_GRACE_MS: "300", SLUICE_DEMO_DATA: "0" }),
      logger: silentLogger(),
      database: await createTestDatabase("pglite"),
      serverOptions: { plugins: [slowRoute] },
    };
    const service = await startService(serviceOptions);
    const signals = new EventEmitter();
    const exited = new Promise<number>((resolve) => exitOnSignals(service, silentLogger(), resolve, signals));

    const slow = fetch(`${service.apiUrl}/test-slow`).then(async (response) => ({
      status: response.status,
      body: await response.json(),
    }));
    await slowStarted;
    signals.emit("SIGTERM", "SIGTERM");

    // During the grace period the listener is still open and the probe reports draining.
    const probe = await fetch(`${service.apiUrl}/health`);
    expect(probe.status).toBe(503);
    expect(await probe.json()).toEqual({ status: "draining" });

    releaseSlow();
    expect(await slow).toEqual({ status: 200, body: { done: true } });
    expect(await exited).toBe(0);
    await expect(fetch(`${service.apiUrl}/health`)).rejects.toThrow();
  });

  it("exits 0 when the real process receives SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sluice-shutdown-"));
    tempDirs.push(dataDir);
    const child = spawn(process.execPath, ["bin/sluice.mjs", "serve"], {
      env: {
        ...process.env,
        DATABASE_URL: "",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SLUICE_DEMO_DATA: "0",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout });
    let apiUrl: string | undefined;
    for await (const line of lines) {
      const entry = JSON.parse(line);
      if (entry.msg === "sluice is serving") {
        apiUrl = entry.apiUrl;
        break;
      }
    }
    expect(apiUrl).toBeDefined();
    const health = await fetch(`${apiUrl}/health`);
    expect(health.status).toBe(200);
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});

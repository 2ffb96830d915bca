// Graceful shutdown: /health turns 503, in-flight requests finish, the listener closes, exit code 0; kept-alive
// connections close once their requests are answered, and responses still running at SHUTDOWN_TIMEOUT_MS are cut.
import { spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { buildSluice } from "../../src/app/sluice.ts";
import { exitOnSignals } from "../../src/cli/signals.ts";
import { readEnv } from "../../src/config/env.ts";
import { API_PREFIX, type App } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase } from "../support/db.ts";
import { gate, settledWithin } from "../support/gates.ts";

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 2000) throw new Error("condition not met within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A GET on `agent`, read whole. */
function get(agent: Agent, url: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request(url, { agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

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
    const slowRoute = async (app: App) => {
      app.get("/test-slow", async () => {
        markStarted();
        await new Promise<void>((resolve) => {
          releaseSlow = resolve;
        });
        return { done: true };
      });
    };
    const service = await startTestService(slowRoute, { SHUTDOWN_GRACE_MS: "300" });
    const signals = new EventEmitter();
    const exited = new Promise<number>((resolve) =>
      exitOnSignals(service, silentLogger(), { exit: resolve, signals }),
    );

    const slow = fetch(`${service.apiUrl}/test-slow`).then(async (response) => ({
      status: response.status,
      body: await response.json(),
    }));
    await slowStarted;
    signals.emit("SIGTERM", "SIGTERM");

    // During the grace period the listener is still open and the probe reports draining.
    const probe = await fetch(`${service.apiUrl}/health`);
    expect(probe.status).toBe(503);
    expect(await probe.json()).toEqual({ status: "draining", timestamp: expect.any(String) });

    releaseSlow();
    expect(await slow).toEqual({ status: 200, body: { done: true } });
    expect(await exited).toBe(0);
    await expect(fetch(`${service.apiUrl}/health`)).rejects.toThrow();
  });

  it("abandons a shutdown that outlives its deadline (a stop that never ends) and exits 1", async () => {
    const signals = new EventEmitter();
    const never = { stop: () => new Promise<void>(() => {}) };
    const exited = new Promise<number>((resolve) =>
      exitOnSignals(never, silentLogger(), { exit: resolve, signals, deadlineMs: 50 }),
    );
    signals.emit("SIGTERM", "SIGTERM");
    expect(await exited).toBe(1);
  });

  /**
   * A started partner-only Sluice (it closes its database on stop, as `sluice serve` does) with the test's `routes`
   * under /api/v1 and the given environment (on top of a quiet test one).
   */
  async function startTestService(routes: (app: App) => Promise<void>, env: Record<string, string> = {}) {
    const sluice = await buildSluice({
      env: readEnv({ PORT: "0", HOST: "127.0.0.1", INTERNAL_PORT: "0", SLUICE_DEMO_DATA: "0", ...env }),
      logger: silentLogger(),
      database: await createTestDatabase("pglite"),
      closeDatabase: true,
    });
    await sluice.http.register(routes, { prefix: API_PREFIX });
    await sluice.start();
    return sluice;
  }

  it("closes a kept-alive connection once its in-flight request is answered, not after the keep-alive timeout", async () => {
    const release = gate();
    const started = gate();
    const service = await startTestService(
      async (app: App) => {
        app.get("/test-slow", async () => {
          started.open();
          await release.opened;
          return { done: true };
        });
      },
      { HTTP_KEEP_ALIVE_TIMEOUT_MS: "120000" },
    );
    const agent = new Agent({ keepAlive: true });
    try {
      // One connection idle at shutdown (its request answered before), one with a request in flight.
      const idle = await get(agent, `${service.apiUrl}/health`);
      expect(idle.status).toBe(200);
      const slow = get(agent, `${service.apiUrl}/test-slow`);
      await started.opened;

      const stopped = service.stop();
      // Answered only once the listener has closed: the request was in flight when shutdown began.
      await until(() => !service.http.server.listening);
      release.open();
      const answer = await slow;
      expect(answer).toMatchObject({ status: 200, body: '{"done":true}' });
      // The answer tells the client not to reuse the connection, and the server closes it.
      expect(answer.headers.connection).toBe("close");
      expect(
        await settledWithin(stopped, 15_000),
        "shutdown finished long before the keep-alive timeout",
      ).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it("closes a long-lived response at SHUTDOWN_TIMEOUT_MS", async () => {
    const streaming = gate();
    const service = await startTestService(
      async (app: App) => {
        // A response that never ends by itself, like a stream with a heartbeat.
        app.get("/test-stream", async (_request, reply) => {
          async function* heartbeat() {
            for (;;) {
              yield "tick\n";
              streaming.open();
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
          return reply.type("text/plain").send(Readable.from(heartbeat()));
        });
      },
      { SHUTDOWN_TIMEOUT_MS: "300" },
    );
    const agent = new Agent({ keepAlive: true });
    try {
      const ended = new Promise<string>((resolve) => {
        request(`${service.apiUrl}/test-stream`, { agent }, (response) => {
          response.on("data", () => {});
          response.on("close", () => resolve(response.complete ? "complete" : "cut off"));
        }).end();
      });
      await streaming.opened;
      const stopped = service.stop();
      expect(await settledWithin(stopped, 15_000), "shutdown finished despite the endless response").toBe(
        true,
      );
      expect(await ended).toBe("cut off");
    } finally {
      agent.destroy();
    }
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
        INTERNAL_PORT: "0",
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

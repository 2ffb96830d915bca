// Builds a real server around a test database for HTTP tests (fastify.inject, or listen on port 0).
import { type Clock, ManualClock, systemClock } from "../../src/clock.ts";
import type { Database } from "../../src/db/client.ts";
import type { AppContext } from "../../src/http/context.ts";
import { Lifecycle } from "../../src/http/lifecycle.ts";
import { type App, buildServer, type ServerOptions } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";

export { ManualClock };

export async function createTestServer(
  database: Database,
  overrides: Partial<AppContext> & { clock?: Clock } = {},
  options: ServerOptions = {},
): Promise<{ app: App; context: AppContext }> {
  const context: AppContext = {
    database,
    clock: overrides.clock ?? systemClock,
    logger: overrides.logger ?? silentLogger(),
    lifecycle: overrides.lifecycle ?? new Lifecycle(),
    ...overrides,
  };
  const app = await buildServer(context, options);
  await app.ready();
  return { app, context };
}

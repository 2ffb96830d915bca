// What route plugins receive: the process-wide dependencies, passed in rather than imported, so tests can
// build a server around a throwaway database, a manual clock or a private chain.
import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { Lifecycle } from "./lifecycle.ts";

export interface AppContext {
  database: Database;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
  /** Absolute base URL of the public API (`PUBLIC_URL`); when absent, each request's own origin is used. */
  publicUrl?: string;
}

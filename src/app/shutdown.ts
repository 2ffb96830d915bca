// How long stopping a Sluice may take, in all: the one bound the signal handler (src/cli/signals.ts) holds it to.
import type { Env } from "../config/env.ts";

/** After the HTTP part of a shutdown, the longest the workers, the bundled solvers, anvil and the database may take. */
export const STOP_TIMEOUT_MS = 20_000;

/** The longest a shutdown may take in all: the grace period, the HTTP close, then stopping everything else. */
export function shutdownBoundMs(env: Pick<Env, "SHUTDOWN_GRACE_MS" | "SHUTDOWN_TIMEOUT_MS">): number {
  return env.SHUTDOWN_GRACE_MS + env.SHUTDOWN_TIMEOUT_MS + STOP_TIMEOUT_MS;
}

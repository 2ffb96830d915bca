// A dependency out of reach (the database, the chain's RPC) is an outage with a start and an end, not a failure per
// request or per worker tick: the client that meets it says so once when it starts and once when it ends. Everything
// else that fails because of it (a request's 503, a worker's retry) logs at debug, so an operator reads two lines
// per outage and an alert on them fires once.
import type { Logger } from "./logger.ts";

export type OutageKind = "database" | "chain";

/** An error that stands for a dependency out of reach carries its kind (DatabaseUnavailableError, ChainUnavailableError). */
export interface OutageError extends Error {
  readonly outage: OutageKind;
}

/** The kind of outage `error` (or an error in its `cause` chain) stands for; undefined for every other failure. */
export function outageOf(error: unknown): OutageKind | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    const kind = (current as Partial<OutageError>).outage;
    if (kind === "database" || kind === "chain") return kind;
    current = current.cause;
  }
  return undefined;
}

/**
 * The level a failure is logged at where it is met: `level` for a failure of its own, debug for one an outage
 * explains (its OutageLog has said so already).
 */
export function failureLevel<Level extends "warn" | "error">(error: unknown, level: Level): Level | "debug" {
  return outageOf(error) ? "debug" : level;
}

/**
 * One dependency's outages, as its client sees them: `failed` at every failure that means it is out of reach,
 * `succeeded` at every answer. Logs one warning when an outage starts (with the first failure) and one when it ends
 * (with how long it lasted and how many failures it held).
 */
export class OutageLog {
  #since: number | undefined;
  #failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly kind: OutageKind,
    /** What names the dependency in both lines (e.g. the chain's name and id). */
    private readonly facts: Record<string, unknown> = {},
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.#since !== undefined;
  }

  failed(error: unknown): void {
    this.#failures++;
    if (this.#since !== undefined) return;
    this.#since = this.now();
    this.logger.warn(
      { ...this.facts, outage: this.kind, err: error },
      `${this.kind} unavailable: outage started`,
    );
  }

  succeeded(): void {
    if (this.#since === undefined) return;
    const downMs = this.now() - this.#since;
    const failures = this.#failures;
    this.#since = undefined;
    this.#failures = 0;
    this.logger.warn(
      { ...this.facts, outage: this.kind, downMs, failures },
      `${this.kind} available again: outage ended`,
    );
  }
}

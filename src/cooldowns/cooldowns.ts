// Which solvers are in cooldown, as this replica sees it: the stored state, re-read on a short timer so a cooldown
// another replica (or the indexer, or the operator's command) started or lifted is honoured here within
// REFRESH_INTERVAL_MS. Whether a cooldown is running is judged against the injected clock at each question, so one
// whose time is up ends at once everywhere, before any replica records its end.
import type { Clock } from "../clock.ts";
import type { CooldownConfig } from "../deployment/schema.ts";
import type { Logger } from "../logger.ts";
import type { ActiveCooldown, CooldownChange, CooldownRepository } from "./repository.ts";

/** The stored state is re-read this often: the issue asks replicas to apply a change within 250 ms. */
export const REFRESH_INTERVAL_MS = 200;

export interface SolverCooldown {
  until: Date;
  reason: string;
}

export class SolverCooldowns {
  #byId = new Map<string, ActiveCooldown>();
  #timer: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> | undefined;
  readonly #listeners = new Set<(change: CooldownChange) => void>();

  constructor(
    private readonly repository: CooldownRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly config: CooldownConfig,
  ) {}

  /** The solver's running cooldown, or null (the read interface GET /solvers and the auctions use). */
  cooldownOf(solverId: string): SolverCooldown | null {
    const cooldown = this.#byId.get(solverId);
    if (!cooldown || cooldown.until <= this.clock.now()) return null;
    return { until: cooldown.until, reason: cooldown.reason };
  }

  isCoolingDown(solverId: string): boolean {
    return this.cooldownOf(solverId) !== null;
  }

  /** Solvers in cooldown now. */
  coolingDown(): string[] {
    return [...this.#byId.keys()].filter((id) => this.isCoolingDown(id));
  }

  /** Called with every start and end this replica records or first sees (the failure counter starts over). */
  onChange(listener: (change: CooldownChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => {
      this.refresh().catch((error: unknown) =>
        this.logger.warn({ err: error }, "cooldown state not refreshed; the previous one holds"),
      );
    }, REFRESH_INTERVAL_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#refreshing?.catch(() => {});
  }

  /** Records the ends of elapsed cooldowns, then reads the stored ones. Concurrent calls share one read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#read().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Changes this replica recorded: logged once, applied at once (the other replicas read them at their refresh). */
  recorded(changes: readonly CooldownChange[]): void {
    for (const change of changes) {
      logCooldownChange(this.logger, change);
      if (change.kind === "start" && change.until)
        this.#byId.set(change.solverId, {
          solverId: change.solverId,
          until: change.until,
          reason: change.reason,
        });
      else if (change.kind === "end") this.#byId.delete(change.solverId);
      for (const listener of this.#listeners) listener(change);
    }
  }

  async #read(): Promise<void> {
    // Only a cooldown read earlier can have elapsed since: one read a moment ago is ended at the next refresh. So
    // a quiet refresh is one small read, no write.
    const now = this.clock.now();
    if ([...this.#byId.values()].some((cooldown) => cooldown.until <= now))
      this.recorded(await this.repository.endElapsed(now));
    const current = await this.repository.current();
    const next = new Map(current.map((cooldown) => [cooldown.solverId, cooldown]));
    // Starts and lifts another process recorded reach this replica's listeners as changes too.
    for (const [solverId, cooldown] of next) {
      const known = this.#byId.get(solverId);
      if (!known || known.until.getTime() !== cooldown.until.getTime())
        this.#notify({
          solverId,
          kind: "start",
          reason: cooldown.reason,
          until: cooldown.until,
          at: this.clock.now(),
        });
    }
    for (const solverId of this.#byId.keys()) {
      if (!next.has(solverId))
        this.#notify({ solverId, kind: "end", reason: "ended elsewhere", until: null, at: this.clock.now() });
    }
    this.#byId = next;
  }

  #notify(change: CooldownChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** One info line per start or end, wherever it is recorded (a replica, the indexer, the operator's command). */
export function logCooldownChange(logger: Logger, change: CooldownChange): void {
  logger.info(
    {
      solverId: change.solverId,
      cooldown: change.kind,
      reason: change.reason,
      ...(change.until ? { until: change.until.toISOString() } : {}),
    },
    change.kind === "start" ? "solver cooldown started" : "solver cooldown ended",
  );
}

// Which solvers are in cooldown, as this replica sees it: the stored state, re-read on a short timer so a cooldown
// another replica (or the indexer, or the operator's command) started or lifted is honoured here within
// REFRESH_INTERVAL_MS. Whether a cooldown is running is judged against the injected clock at each question, so one
// whose time is up ends at once everywhere, before any replica records its end.
//
// The breaker's floor: it never leaves the venue without a quoting solver. While every solver the deployment enables
// is in cooldown, the one whose automatic cooldown ends first keeps being asked (its cooldown still stands, and is
// shown): an error line when that starts, `sluice_fade_breaker_floor{solver}` at 1, and the alert README names. An
// operator's cooldown is never overridden.

import type { Clock } from "../clock.ts";
import type { CooldownConfig } from "../deployment/schema.ts";
import type { Logger } from "../logger.ts";
import { failureLevel } from "../outages.ts";
import { OPERATOR_REASON } from "./policy.ts";
import type { ActiveCooldown, CooldownChange, CooldownRepository } from "./repository.ts";

/** The alert README "Solver cooldowns" defines on `sluice_fade_breaker_floor`. */
export const FLOOR_ALERT = "SluiceFadeBreakerFloor";

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
  /** The solver the floor last kept asking (null: none), to log each change once. */
  #floor: string | null = null;

  /** `eligible`: the solvers the deployment enables, whom the floor keeps from all being left out at once. */
  constructor(
    private readonly repository: CooldownRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly config: CooldownConfig,
    private readonly eligible: readonly string[] = [],
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

  /** Whether auctions and /liquidity leave the solver out now: in cooldown, and not the one the floor keeps. */
  isLeftOut(solverId: string): boolean {
    return this.isCoolingDown(solverId) && this.keptByFloor() !== solverId;
  }

  /**
   * The solver asked despite its cooldown because every eligible solver is in one: the one whose automatic cooldown
   * ends first (the fewest repeats, or the oldest; ties by id). Null while some eligible solver is out of cooldown,
   * or every cooldown is the operator's.
   */
  keptByFloor(): string | null {
    let kept: { solverId: string; until: Date } | null = null;
    for (const solverId of this.eligible) {
      const cooldown = this.cooldownOf(solverId);
      if (!cooldown) return this.#floorIs(null);
      if (cooldown.reason === OPERATOR_REASON) continue;
      if (
        !kept ||
        cooldown.until < kept.until ||
        (cooldown.until.getTime() === kept.until.getTime() && solverId < kept.solverId)
      )
        kept = { solverId, until: cooldown.until };
    }
    return this.#floorIs(kept?.solverId ?? null);
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
        this.logger[failureLevel(error, "warn")](
          { err: error },
          "cooldown state not refreshed; the previous one holds",
        ),
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

  #floorIs(solverId: string | null): string | null {
    if (solverId === this.#floor) return solverId;
    const previous = this.#floor;
    this.#floor = solverId;
    if (solverId)
      this.logger.error(
        { solverId, coolingDown: this.eligible, alert: FLOOR_ALERT },
        "every eligible solver is in cooldown: the fade breaker keeps asking the least faded",
      );
    else
      this.logger.warn(
        { solverId: previous, alert: FLOOR_ALERT },
        "a solver is out of cooldown: the fade breaker's floor is lifted",
      );
    return solverId;
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

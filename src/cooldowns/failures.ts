// Failures to answer, counted from the rounds this replica runs: a timeout, an error or an invalid answer counts only
// in a round where another solver quoted (so the market was answerable), and at most once per swapper per minute (so
// flooding /quote for one swapper — or with `solverIds` of one solver, where nobody else quotes — adds nothing). Each
// solver keeps a window of its last counted rounds since its last cooldown ended; more than the configured share of
// failures in a full window starts a cooldown, stored, so every replica honours it. The windows live in memory: each
// replica judges the rounds it ran, a sample of the same traffic (docs/solvers.md "Solver cooldowns").

import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { RoundAnswer, RoundObserver } from "../market/market.ts";
import { failureLevel } from "../outages.ts";
import { SOLVER_REJECTIONS } from "../solvers/client.ts";
import type { SolverCooldowns } from "./cooldowns.ts";
import { failureReason, failuresCallForCooldown } from "./policy.ts";
import type { CooldownRepository } from "./repository.ts";

/** Rejections that are the solver's failure to answer: every reason the solver client records. */
export const FAILURE_REASONS: ReadonlySet<string> = new Set(SOLVER_REJECTIONS);

const MINUTE_MS = 60_000;

export class FailureCounter implements RoundObserver {
  /** Per solver, its counted rounds since its last cooldown ended, oldest first: true = a failure. */
  readonly #windows = new Map<string, boolean[]>();
  /** `${solverId} ${swapper}` → the minute a failure of that pair last counted. */
  readonly #lastFailureMinute = new Map<string, number>();
  readonly #starting = new Map<string, Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly repository: CooldownRepository,
    private readonly cooldowns: SolverCooldowns,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    // A cooldown's start or end opens a new window: counts cover only rounds after the last cooldown ended.
    cooldowns.onChange((change) => this.#windows.delete(change.solverId));
  }

  observed(round: { swapper: string; answers: readonly RoundAnswer[]; at: Date }): void {
    const minute = Math.floor(round.at.getTime() / MINUTE_MS);
    this.#forgetOldMinutes(minute);
    for (const answer of round.answers) {
      if (!round.answers.some((other) => other.solverId !== answer.solverId && other.outcome === "quoted"))
        continue;
      const failed = answer.outcome === "rejected" && FAILURE_REASONS.has(answer.reason ?? "");
      if (failed) {
        const key = `${answer.solverId} ${round.swapper.toLowerCase()}`;
        if (this.#lastFailureMinute.get(key) === minute) continue;
        this.#lastFailureMinute.set(key, minute);
      }
      this.#count(answer.solverId, failed);
    }
  }

  /** Settles once every cooldown this counter is starting is stored (or failed and was logged). */
  async idle(): Promise<void> {
    await Promise.all(this.#starting.values());
  }

  /** The solver's window as counted so far (failures, rounds). */
  windowOf(solverId: string): { failures: number; counted: number } {
    const window = this.#windows.get(solverId) ?? [];
    return { failures: window.filter(Boolean).length, counted: window.length };
  }

  #count(solverId: string, failed: boolean): void {
    const { config } = this.cooldowns;
    let window = this.#windows.get(solverId);
    if (!window) {
      window = [];
      this.#windows.set(solverId, window);
    }
    window.push(failed);
    if (window.length > config.failures.window) window.shift();
    const failures = window.filter(Boolean).length;
    if (!failed || !failuresCallForCooldown(failures, window.length, config)) return;
    if (this.#starting.has(solverId) || this.cooldowns.isCoolingDown(solverId)) return;
    const reason = failureReason(failures, window.length);
    const starting = this.database.db
      .transaction((tx) =>
        this.repository.startAutomatic(tx, solverId, reason, this.clock.now(), this.cooldowns.config),
      )
      .then(
        (changes) => this.cooldowns.recorded(changes),
        (error: unknown) =>
          this.logger[failureLevel(error, "error")]({ err: error, solverId }, "solver cooldown not stored"),
      )
      .finally(() => this.#starting.delete(solverId));
    this.#starting.set(solverId, starting);
  }

  /** Only this minute's pairs can still hold a failure back. */
  #forgetOldMinutes(minute: number): void {
    if (this.#lastFailureMinute.size < 10_000) return;
    for (const [key, counted] of this.#lastFailureMinute)
      if (counted !== minute) this.#lastFailureMinute.delete(key);
  }
}

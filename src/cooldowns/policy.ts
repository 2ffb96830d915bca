// The fade breaker's rules as pure functions: how long a cooldown lasts (doubling on repeats within the window), and
// when a solver's recent fades or failures call for one. No storage, no clock: callers pass both in.
import type { CooldownConfig } from "../deployment/schema.ts";
import type { OrderOutcome } from "./tables.ts";

export interface CooldownHistory {
  /** Cooldowns in a row so far (0: none, or the last one ended more than a repeat window ago, or it was lifted). */
  repeats: number;
  lastEndedAt: Date | null;
}

export interface NextCooldown {
  until: Date;
  /** The new value of `repeats`. */
  repeats: number;
}

/**
 * The cooldown that starts at `now`: `base` doubled once per earlier cooldown in a row, at most `max`. A cooldown
 * counts as a repeat when it starts within `repeatWindow` of the previous one's end; after a clean window the
 * doubling starts over.
 */
export function nextCooldown(
  history: CooldownHistory,
  now: Date,
  config: Pick<CooldownConfig, "base" | "max" | "repeatWindow">,
): NextCooldown {
  const repeat =
    history.lastEndedAt !== null && now.getTime() - history.lastEndedAt.getTime() <= config.repeatWindow;
  const repeats = repeat ? history.repeats + 1 : 1;
  // 2^(repeats-1), capped before it can overflow: max is reached long before 2^40.
  const factor = 2 ** Math.min(repeats - 1, 40);
  const duration = Math.min(config.base * factor, config.max);
  return { until: new Date(now.getTime() + duration), repeats };
}

export interface OutcomeInWindow {
  outcome: OrderOutcome;
  swapper: string;
}

/**
 * The fades that count in a solver's window (its newest outcomes, newest first, after its last cooldown ended): one
 * per swapper at most, so a single swapper cannot fade a solver's orders on purpose to push it out.
 */
export function countedFades(window: readonly OutcomeInWindow[]): number {
  return new Set(window.filter((row) => row.outcome === "faded").map((row) => row.swapper)).size;
}

export function fadesCallForCooldown(
  window: readonly OutcomeInWindow[],
  config: Pick<CooldownConfig, "fades">,
): boolean {
  return countedFades(window) > config.fades.maxFades;
}

/** Failures among a full window of counted auctions; a window not yet full never calls for a cooldown. */
export function failuresCallForCooldown(
  failures: number,
  counted: number,
  config: Pick<CooldownConfig, "failures">,
): boolean {
  return counted >= config.failures.window && failures > config.failures.maxShare * counted;
}

/** The guide's wording of a cooldown's reason (docs/solvers.md), as logged and stored. */
export function fadeReason(fades: number, window: number): string {
  return `faded ${fades} of its last ${window} assigned orders that ended`;
}

/** The reason of the operator's `--set`: the breaker's floor never overrides it. */
export const OPERATOR_REASON = "set by the operator";

export function failureReason(failures: number, counted: number): string {
  return `failed to answer ${failures} of its last ${counted} counted auctions`;
}

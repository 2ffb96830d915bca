// Whether a solver is in cooldown, as the scorecards show it. The cooldown itself (the fade breaker) is decided and
// stored by the fade breaker (src/cooldowns); the composition root hands its view in.

export interface SolverCooldown {
  until: Date;
  reason: string;
}

export interface SolverCooldownView {
  /** The solver's current cooldown, or null when it has none. */
  cooldownOf(solverId: string): SolverCooldown | null;
}

// What this process observed solvers do, for its per-process Prometheus counters (src/http/metrics.ts implements
// it). Told only after the write that stored it succeeded, once per write, so the sum over replicas counts each
// answer and each order change once.
import type { AnswerFact, WinFact } from "./answer-stats.ts";

export interface SolverActivity {
  /** Answers and wins this process stored. */
  answers(answers: readonly AnswerFact[], wins: readonly WinFact[]): void;
  /** An order status change this process wrote (`from` null: the order was created, i.e. assigned). */
  orderStatus(solverId: string, from: string | null, to: string): void;
}

/** Counts nothing (tests and tools that build parts without a metrics registry). */
export const noSolverActivity: SolverActivity = {
  answers() {},
  orderStatus() {},
};

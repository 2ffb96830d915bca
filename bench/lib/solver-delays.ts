// The injected answer delays of the swap suite's six solver servers, shared by the solver process (which waits
// them) and the suite (which subtracts the slowest from each /quote's latency). Every request gets the same six
// delays, 5 to 50 ms in steps of 9, dealt to the solvers in a rotation chosen by the request id: the slowest
// answer is always 50 ms, but which solver gives it changes from request to request, as it would in production.
import { createHash } from "node:crypto";

export const SOLVER_DELAYS_MS = [5, 14, 23, 32, 41, 50] as const;
export const SLOWEST_DELAY_MS = Math.max(...SOLVER_DELAYS_MS);

/** The delay solver `index` (0-based) waits before answering the auction of `requestId`. */
export function injectedDelayMs(requestId: string, index: number): number {
  const rotation = createHash("sha256").update(requestId).digest().readUInt32BE(0) % SOLVER_DELAYS_MS.length;
  return SOLVER_DELAYS_MS[(index + rotation) % SOLVER_DELAYS_MS.length]!;
}

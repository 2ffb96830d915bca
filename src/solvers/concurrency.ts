// How many quote requests each solver has in flight on this replica, against its cap (`maxConcurrentRequests` in the
// deployment file), and how they are shared between clients. A solver at its cap is left out of a round rather than
// sent one more request: it is not asked, so it neither answers nor fails, and nothing (a flood of /quote, its own
// slowness under that flood) can count the held-back request against it. One client holds at most a share of each
// solver's slots (`solverClientShare`, half by default), so a flood from one client, even one that names a single
// solver in `solverIds`, leaves the rest of the solver's slots to everyone else's rounds.
import { DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_SOLVER_CLIENT_SHARE } from "../deployment/schema.ts";
import type { Solver } from "./directory.ts";

/**
 * Who a round is run for, as the HTTP layer identifies the caller: the client's address today (Fastify's
 * `request.ip`), an API key's id once keys exist. Only compared for equality.
 */
export type ClientId = string;

/** Why a solver was left out of a round: all its slots are taken, or this client holds its share of them. */
export type SolverBusyReason = "solver_full" | "client_share";

interface SolverSlots {
  /** Requests in flight to the solver, whoever they are for. */
  total: number;
  /** Requests in flight per client (only clients with one or more). */
  readonly byClient: Map<ClientId, number>;
}

export class SolverConcurrency {
  readonly #slots = new Map<string, SolverSlots>();
  readonly #clientShare: number;

  /** `clientShare`: the part of each solver's slots one client may hold (0 < share ≤ 1). */
  constructor(options: { clientShare?: number } = {}) {
    const share = options.clientShare ?? DEFAULT_SOLVER_CLIENT_SHARE;
    if (!(share > 0 && share <= 1)) throw new RangeError(`clientShare must be in (0, 1], got ${share}`);
    this.#clientShare = share;
  }

  /**
   * Takes one of `solver`'s slots for `client` and answers its release (call it once), or the reason none is
   * free: every slot taken, or `client` holding its share already.
   */
  tryAcquire(
    solver: Pick<Solver, "id" | "maxConcurrentRequests">,
    client: ClientId,
  ): { release: () => void } | { busy: SolverBusyReason } {
    const cap = solver.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
    const slots = this.#slots.get(solver.id) ?? { total: 0, byClient: new Map<ClientId, number>() };
    if (slots.total >= cap) return { busy: "solver_full" };
    const held = slots.byClient.get(client) ?? 0;
    if (held >= this.clientLimit(cap)) return { busy: "client_share" };
    slots.total += 1;
    slots.byClient.set(client, held + 1);
    this.#slots.set(solver.id, slots);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        slots.total -= 1;
        const left = (slots.byClient.get(client) ?? 1) - 1;
        if (left > 0) slots.byClient.set(client, left);
        else slots.byClient.delete(client);
        if (slots.total === 0) this.#slots.delete(solver.id);
      },
    };
  }

  /** The slots one client may hold of a solver capped at `cap`: its share, rounded down, and at least one. */
  clientLimit(cap: number): number {
    return Math.max(1, Math.floor(cap * this.#clientShare));
  }

  /** Requests in flight to `solverId` now: all of them, or those of `client`. */
  inFlight(solverId: string, client?: ClientId): number {
    const slots = this.#slots.get(solverId);
    if (!slots) return 0;
    return client === undefined ? slots.total : (slots.byClient.get(client) ?? 0);
  }
}

// Solvers added to a running server by its operator (`sluice devnet add-solver`, through the admin routes of the
// internal listener): each is written to a store first (the devnet's file, so a restart brings it back), then put in
// the directory, so the next auction asks it and the one already running does not. Only solvers added this way can
// be removed this way: the deployment's own come from its file. Changes are made one at a time.
import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import type { Clock } from "../clock.ts";
import type { Solver, SolverDirectory } from "./directory.ts";
import { SolverNotAddedError, UnknownSolverError } from "./errors.ts";

/** What the operator says about a solver to add. */
export interface SolverRegistration {
  id: string;
  name: string;
  /** Base URL; quote requests go to `{endpoint}/quote`. */
  endpoint: string;
  /** Its Executor: the filler its quotes must name. */
  filler: Address;
}

/** An added solver as stored: its registration, the shared secret generated for it, and when. */
export interface AddedSolver extends SolverRegistration {
  sharedSecret: string;
  /** ISO 8601. */
  addedAt: string;
}

/** Where added solvers are kept across restarts. */
export interface AddedSolverStore {
  read(): AddedSolver[];
  write(solvers: readonly AddedSolver[]): void;
}

export interface SolverRegistryOptions {
  directory: SolverDirectory;
  store: AddedSolverStore;
  clock: Clock;
  /**
   * Run before a solver joins the directory: the devnet refreshes its view of the chain head, so the first auction
   * after the answer reads the block that authorized the new solver's Executor (mined before the call).
   */
  beforeAdd?: () => Promise<void>;
}

/** A configured solver as the admin routes list it. */
export type ListedSolver = Pick<Solver, "id" | "name" | "endpoint" | "filler" | "internal" | "enabled"> & {
  /** Added while running (removable), not from the deployment. */
  added: boolean;
};

export class SolverRegistry {
  #last: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SolverRegistryOptions) {}

  list(): ListedSolver[] {
    const added = new Set(this.options.store.read().map((solver) => solver.id));
    return this.options.directory.all().map((solver) => ({
      id: solver.id,
      name: solver.name,
      endpoint: solver.endpoint,
      filler: solver.filler,
      internal: solver.internal,
      enabled: solver.enabled,
      added: added.has(solver.id),
    }));
  }

  /** Adds an external solver with a fresh shared secret; throws SolverConflictError for a taken id or filler. */
  add(registration: SolverRegistration): Promise<AddedSolver> {
    return this.#serially(async () => {
      const { directory, store, clock } = this.options;
      const solver: AddedSolver = {
        ...registration,
        sharedSecret: randomBytes(32).toString("hex"),
        addedAt: clock.now().toISOString(),
      };
      await this.options.beforeAdd?.();
      // Taken ids and fillers are refused here, before anything is written.
      directory.add(addedToSolver(solver));
      try {
        store.write([...store.read(), solver]);
      } catch (error) {
        directory.remove(solver.id);
        throw error;
      }
      return solver;
    });
  }

  /** Removes a solver added earlier: no auction after this asks it. */
  remove(id: string): Promise<AddedSolver> {
    return this.#serially(async () => {
      const { directory, store } = this.options;
      const stored = store.read();
      const solver = stored.find((candidate) => candidate.id === id);
      if (!solver) {
        if (directory.byId(id)) throw new SolverNotAddedError(id);
        throw new UnknownSolverError(id);
      }
      store.write(stored.filter((candidate) => candidate.id !== id));
      directory.remove(id);
      return solver;
    });
  }

  #serially<T>(change: () => Promise<T>): Promise<T> {
    const next = this.#last.then(change, change);
    this.#last = next.catch(() => {});
    return next;
  }
}

/** An added solver as auctions see it: external, enabled, with its secret. */
export function addedToSolver(solver: AddedSolver): Solver {
  return {
    id: solver.id,
    name: solver.name,
    endpoint: solver.endpoint,
    filler: solver.filler,
    internal: false,
    enabled: true,
    sharedSecret: solver.sharedSecret,
  };
}

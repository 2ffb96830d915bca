// The configured solvers of a deployment, with their secrets and logos resolved once at start. On a devnet the set
// changes while the server runs (`sluice devnet add-solver`, src/solvers/registry.ts): every change replaces the
// whole map, never a Solver in it, so an auction keeps the solvers it selected (its snapshot) whatever happens next.
import type { Address } from "viem";
import type { Deployment, SolverConfig } from "../deployment/schema.ts";
import type { DeploymentSecrets } from "../deployment/secrets.ts";
import { SolverConflictError } from "./errors.ts";
import type { SolverLogoStore } from "./logos.ts";

export interface Solver {
  id: string;
  name: string;
  endpoint: string;
  filler: Address;
  internal: boolean;
  enabled: boolean;
  /** Bundled logo name, if any. */
  logo?: string;
  sharedSecret?: string;
  /** Where each order assigned to it is POSTed (deployment file only). */
  notifyUrl?: string;
  /** Quote requests it may have in flight from one replica (concurrency.ts; 32 when unset). */
  maxConcurrentRequests?: number;
  /** The order records its polls get when they do not say (`GET /orders` `view`); Sluice's own when unset. */
  ordersView?: "sluice" | "rfq-backend";
}

/**
 * Which solvers auctions leave out now (src/cooldowns: in cooldown, unless the breaker's floor keeps one): the directory
 * only asks, it never decides.
 */
export interface CooldownView {
  isLeftOut(solverId: string): boolean;
}

export class SolverDirectory {
  /** Replaced whole on every change (copy on write): readers never see a half-made change. */
  #byId: ReadonlyMap<string, Solver>;
  /** The fillers of every configured solver, one array per version of the map (so a change is seen by identity). */
  #fillers: readonly Address[] | undefined;
  readonly #reserved: ReadonlySet<string>;

  constructor(
    solvers: readonly Solver[],
    reservedIds: readonly string[] = [],
    readonly logos?: SolverLogoStore,
    private readonly cooldowns?: CooldownView,
  ) {
    this.#byId = new Map(solvers.map((solver) => [solver.id, solver]));
    this.#reserved = new Set(reservedIds);
  }

  static fromDeployment(
    deployment: Deployment,
    secrets: Pick<DeploymentSecrets, "solverSecrets">,
    logos?: SolverLogoStore,
    cooldowns?: CooldownView,
  ) {
    const toSolver = (config: SolverConfig): Solver => ({
      id: config.id,
      name: config.name,
      endpoint: config.endpoint,
      filler: config.filler,
      internal: config.internal,
      enabled: config.enabled,
      logo: config.logo,
      sharedSecret: secrets.solverSecrets.get(config.id),
      ...(config.notifyUrl ? { notifyUrl: config.notifyUrl } : {}),
      maxConcurrentRequests: config.maxConcurrentRequests,
      ...(config.ordersView ? { ordersView: config.ordersView } : {}),
    });
    return new SolverDirectory(
      deployment.solvers.map(toSolver),
      deployment.reservedSolverIds,
      logos,
      cooldowns,
    );
  }

  all(): Solver[] {
    return [...this.#byId.values()];
  }

  /**
   * The distinct fillers of every configured solver: the addresses whose authorization on the adapters matters. The
   * same array until the set of solvers changes, so a cache built on it can tell a change by identity.
   */
  fillers(): readonly Address[] {
    this.#fillers ??= [...new Set(this.all().map((solver) => solver.filler))];
    return this.#fillers;
  }

  /**
   * Adds a solver from the next auction on. Its id must be new and not reserved, and its filler no other solver's
   * (an order's filler names the solver that fills it).
   */
  add(solver: Solver): void {
    if (this.#byId.has(solver.id) || this.#reserved.has(solver.id))
      throw new SolverConflictError("id", solver.id, solver.id);
    const sameFiller = this.byFiller(solver.filler);
    if (sameFiller) throw new SolverConflictError("filler", solver.filler, sameFiller.id);
    this.#replace(new Map([...this.#byId, [solver.id, solver]]));
  }

  /** Removes a solver from the next auction on; auctions already running keep it. Returns it, if it was there. */
  remove(id: string): Solver | undefined {
    const solver = this.#byId.get(id);
    if (!solver) return undefined;
    const next = new Map(this.#byId);
    next.delete(id);
    this.#replace(next);
    return solver;
  }

  #replace(next: ReadonlyMap<string, Solver>): void {
    this.#byId = next;
    this.#fillers = undefined;
  }

  enabled(): Solver[] {
    return this.all().filter((solver) => solver.enabled);
  }

  /** A configured, enabled solver; reserved and unknown ids find nothing. */
  enabledById(id: string): Solver | undefined {
    if (this.#reserved.has(id)) return undefined;
    const solver = this.#byId.get(id);
    return solver?.enabled ? solver : undefined;
  }

  /** The configured solver whose Executor is `filler` (addresses compare lowercased), if any. */
  byFiller(filler: string): Solver | undefined {
    const wanted = filler.toLowerCase();
    return this.all().find((solver) => solver.filler.toLowerCase() === wanted);
  }

  /** Any configured solver, enabled or not (for order records of solvers since disabled). */
  byId(id: string): Solver | undefined {
    return this.#byId.get(id);
  }

  /**
   * Every configured solver as auctions and /liquidity see it now: one in cooldown counts as disabled. (GET /orders,
   * the order stream and the internal discount API use the configured `enabled`: a solver in cooldown still fills
   * what it won.)
   */
  forAuctions(): Solver[] {
    const cooldowns = this.cooldowns;
    if (!cooldowns) return this.all();
    return this.all().map((solver) =>
      solver.enabled && cooldowns.isLeftOut(solver.id) ? { ...solver, enabled: false } : solver,
    );
  }

  /**
   * Solvers that may be asked in an auction now (enabled, not in cooldown), restricted to `ids` when given; ids that
   * match no configured solver match nothing.
   */
  select(ids?: readonly string[]): Solver[] {
    const eligible = this.forAuctions().filter((solver) => solver.enabled);
    if (!ids) return eligible;
    const wanted = new Set(ids);
    return eligible.filter((solver) => wanted.has(solver.id) && !this.#reserved.has(solver.id));
  }

  logoUrl(solver: Solver, baseUrl: string): string | undefined {
    return solver.logo ? this.logos?.urlFor(solver.logo, baseUrl) : undefined;
  }
}

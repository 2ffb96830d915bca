// The configured solvers of a deployment, with their secrets and logos resolved once at start.
import type { Address } from "viem";
import type { Deployment, SolverConfig } from "../deployment/schema.ts";
import type { DeploymentSecrets } from "../deployment/secrets.ts";
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
  readonly #byId: Map<string, Solver>;
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

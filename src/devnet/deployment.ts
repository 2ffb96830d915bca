// The devnet's Deployment, built in memory from what was deployed (the record) and where the bundled solvers
// listen. It goes through the same schema as a deployment file, so the devnet cannot drift from what files allow.
import { parseDeployment } from "../deployment/load.ts";
import type { Deployment, DeploymentInput } from "../deployment/schema.ts";
import { normalizeAddress } from "../shared/wire.ts";
import type { AddedSolver } from "../solvers/registry.ts";
import type { CoreDeployment } from "./deploy.ts";
import { devnetPointsEngineSection } from "./points-config.ts";
import type { PointsDeployment } from "./points-deploy.ts";
import type { PointsPlan } from "./points-plan.ts";

export const DEVNET_CHAIN_ID = 31337;

/** 0.01 tRWA: below it /quote answers 404 without asking the solvers. */
export const DEVNET_MIN_QUOTE_AMOUNT = 10n ** 16n;

export interface BundledSolver {
  id: string;
  name: string;
  /** The reference solver's margin below its best legs, in basis points. */
  marginBps: number;
  /** An internal solver: also offered the discount legs, which it resolves through the internal discount API. */
  internal: boolean;
  /** Bundled logo in assets/solver-logos. */
  logo: string;
  /** Names the secret's variable in deployment.json; the devnet itself passes the secret in memory. */
  sharedSecretEnv: string;
  /** Names the filling key's variable in the solver's config; the devnet passes the key in memory. */
  privateKeyEnv: string;
}

/**
 * Two reference solvers with different margins, so the auction on the devnet has a real winner; alpha is internal
 * (it also gets the discount legs), beta external.
 */
export const BUNDLED_SOLVERS: readonly BundledSolver[] = [
  {
    id: "sluice_alpha",
    name: "Sluice Alpha",
    marginBps: 10,
    internal: true,
    logo: "sluice-alpha",
    sharedSecretEnv: "SLUICE_ALPHA_SHARED_SECRET",
    privateKeyEnv: "SLUICE_ALPHA_PRIVATE_KEY",
  },
  {
    id: "sluice_beta",
    name: "Sluice Beta",
    marginBps: 30,
    internal: false,
    logo: "sluice-beta",
    sharedSecretEnv: "SLUICE_BETA_SHARED_SECRET",
    privateKeyEnv: "SLUICE_BETA_PRIVATE_KEY",
  },
];

export interface DevnetDeploymentOptions {
  core: CoreDeployment;
  /** The points contracts: the deployment's `pointsEngine` section computes the own points from their stake. */
  points: PointsDeployment & { plan: PointsPlan };
  /** Each bundled solver's base URL, by solver id. */
  solverEndpoints: ReadonlyMap<string, string>;
  /** Solvers `sluice devnet add-solver` added (src/devnet/added-solvers.ts), after the bundled ones. */
  added?: readonly AddedSolver[];
}

/** The variable deployment.json names for an added solver's secret (the devnet passes the secret in memory). */
export function addedSolverSecretEnv(solverId: string): string {
  return `${solverId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_SHARED_SECRET`;
}

/** The devnet's tokens as the deployment lists them: tRWA in, tUSD and tUSDT out. */
export function devnetTokens(core: CoreDeployment): Pick<Deployment, "inputTokens" | "outputTokens"> {
  return {
    inputTokens: [
      {
        address: normalizeAddress(core.tokens.rwa),
        symbol: "tRWA",
        name: "Sluice Test RWA",
        decimals: 18,
        minQuoteAmount: DEVNET_MIN_QUOTE_AMOUNT.toString(),
        liquidityOutputToken: normalizeAddress(core.tokens.usd),
      },
    ],
    outputTokens: [
      { address: normalizeAddress(core.tokens.usd), symbol: "tUSD", name: "Sluice Test USD", decimals: 6 },
      {
        address: normalizeAddress(core.tokens.usdt),
        symbol: "tUSDT",
        name: "Sluice Test Tether USD",
        decimals: 6,
      },
    ],
  };
}

export function devnetDeployment({
  core,
  points,
  solverEndpoints,
  added = [],
}: DevnetDeploymentOptions): Deployment {
  return parseDeployment(
    {
      name: "devnet",
      chainId: core.chainId,
      chainName: "Sluice devnet",
      local: true,
      reactor: core.reactor,
      executors: [...core.executors, ...added.map((solver) => solver.filler)],
      adapterFactory: core.adapterFactory,
      protocolSigner: core.protocolSigner,
      ...devnetTokens(core),
      adapters: [
        { address: core.adapters.usd, label: "tUSD vault adapter" },
        { address: core.adapters.usdt, label: "tUSDT vault adapter" },
      ],
      solvers: [...bundledSolverConfigs(core, solverEndpoints), ...added.map(addedSolverConfig)],
      // The devnet never reorganises: orders settle at the block that includes them.
      confirmationDepth: 0,
      // Small, so a demo order becomes final within seconds (a block a second).
      finalityDepth: 2,
      startBlock: Number(core.startBlock),
      identityBlock: Number(core.reactorBlock),
      pointsEngine: devnetPointsEngineSection(points.plan, points.startBlock),
    },
    "devnet",
  );
}

type SolverInput = DeploymentInput["solvers"][number];

function bundledSolverConfigs(core: CoreDeployment, endpoints: ReadonlyMap<string, string>): SolverInput[] {
  return BUNDLED_SOLVERS.map((solver, index) => {
    const endpoint = endpoints.get(solver.id);
    const filler = core.executors[index];
    if (!endpoint || !filler) throw new Error(`bundled solver ${solver.id} has no endpoint or Executor`);
    return {
      id: solver.id,
      name: solver.name,
      endpoint,
      filler,
      internal: solver.internal,
      enabled: true,
      logo: solver.logo,
      sharedSecretEnv: solver.sharedSecretEnv,
    };
  });
}

function addedSolverConfig(solver: AddedSolver): SolverInput {
  return {
    id: solver.id,
    name: solver.name,
    endpoint: solver.endpoint,
    filler: solver.filler,
    internal: false,
    enabled: true,
    sharedSecretEnv: addedSolverSecretEnv(solver.id),
  };
}

// A real deployment file for `sluice serve`, written into a suite's scratch directory, and the environment
// that goes with it (RPC_URLS, PROTOCOL_SIGNER_KEY, one shared secret per solver): the server under test runs
// exactly as an operator would run it, in its own process. The file is validated here with the service's own
// schema first, so a fixture mistake fails before a server is started.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";
import { parseDeployment } from "../../src/deployment/load.ts";
import type { Deployment, DeploymentInput } from "../../src/deployment/schema.ts";
import type { BenchChain } from "./bench-chain.ts";

export interface BenchSolverConfig {
  id: string;
  endpoint: string;
  filler: Address;
  internal: boolean;
  /** The solver's cap of requests in flight on a replica (the deployment's default when absent). */
  maxConcurrentRequests?: number;
}

export interface WrittenDeployment {
  deployment: Deployment;
  file: string;
  /** The environment `sluice serve` reads the deployment and its secrets from. */
  serveEnv: Record<string, string>;
  /** Each solver's shared secret, by id (a solver server checks it). */
  secrets: Map<string, string>;
}

/** The variable holding a bench solver's secret. */
export function secretEnvName(solverId: string): string {
  return `BENCH_SOLVER_${solverId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_SECRET`;
}

export function writeDeployment(
  directory: string,
  input: Omit<DeploymentInput, "solvers"> & { solvers: readonly BenchSolverConfig[] },
  options: {
    /** The chain the server reads (its RPC) and signs for (its protocol signer's key). */
    chain: Pick<BenchChain, "rpcUrl" | "protocolSigner">;
    /** Secrets chosen beforehand (e.g. given to the solver servers before their endpoints were known). */
    secrets?: ReadonlyMap<string, string>;
  },
): WrittenDeployment {
  const secrets = new Map(
    input.solvers.map((solver) => [
      solver.id,
      options.secrets?.get(solver.id) ?? randomBytes(16).toString("hex"),
    ]),
  );
  const raw = {
    ...input,
    solvers: input.solvers.map((solver) => ({
      id: solver.id,
      name: solver.id,
      endpoint: solver.endpoint,
      filler: solver.filler,
      internal: solver.internal,
      enabled: true,
      sharedSecretEnv: secretEnvName(solver.id),
      ...(solver.maxConcurrentRequests === undefined
        ? {}
        : { maxConcurrentRequests: solver.maxConcurrentRequests }),
    })),
  };
  const file = join(directory, "deployment.json");
  const deployment = parseDeployment(raw, file);
  writeFileSync(file, `${JSON.stringify(raw, null, 2)}\n`);
  const serveEnv: Record<string, string> = {
    DEPLOYMENT: "",
    DEPLOYMENT_FILE: file,
    RPC_URLS: options.chain.rpcUrl,
    PROTOCOL_SIGNER_KEY: options.chain.protocolSigner.privateKey,
    // Required off the devnet (the URLs handed out are built on it); nothing here follows them.
    PUBLIC_URL: "http://127.0.0.1",
  };
  for (const [id, secret] of secrets) serveEnv[secretEnvName(id)] = secret;
  return { deployment, file, serveEnv, secrets };
}

// Secrets and endpoints of a running deployment, read from the environment only.
import type { Hex, LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ConfigProblem } from "../shared/config-issues.ts";
import { InvalidDeploymentError } from "./load.ts";
import type { Deployment } from "./schema.ts";

export interface DeploymentSecrets {
  /** RPC endpoints, tried in order (`RPC_URLS`, comma-separated; or one, `RPC_URL`). */
  rpcUrls: string[];
  /** The protocol key that counter-signs orders and discount swaps (`PROTOCOL_SIGNER_KEY`). */
  protocolSigner: LocalAccount;
  /** Each enabled solver's shared secret, by solver id. */
  solverSecrets: Map<string, string>;
}

export function readDeploymentSecrets(deployment: Deployment, env: NodeJS.ProcessEnv): DeploymentSecrets {
  const problems: ConfigProblem[] = [];

  const rpcField = env.RPC_URLS ? "env RPC_URLS" : "env RPC_URL";
  const rpcUrls = (env.RPC_URLS || env.RPC_URL || "")
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  if (rpcUrls.length === 0)
    problems.push({
      field: "env RPC_URLS",
      reason: "required: one or more RPC URLs, comma-separated, tried in order (or one in RPC_URL)",
    });
  for (const url of rpcUrls) {
    if (!/^https?:\/\//.test(url))
      problems.push({ field: rpcField, reason: `not an HTTP(S) RPC URL: ${url}` });
  }

  // Without it, the URLs handed out (solver logos) would follow each request's Host header, which a client sets.
  if (!env.PUBLIC_URL)
    problems.push({
      field: "env PUBLIC_URL",
      reason:
        "required off the devnet: the API's public origin (e.g. https://api.example.com), which the URLs it hands out are built on",
    });

  let protocolSigner: LocalAccount | undefined;
  const key = env.PROTOCOL_SIGNER_KEY;
  if (!key)
    problems.push({
      field: "env PROTOCOL_SIGNER_KEY",
      reason: "required: the protocol signer's private key",
    });
  else if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    problems.push({ field: "env PROTOCOL_SIGNER_KEY", reason: "must be a 32-byte 0x hex key" });
  else {
    protocolSigner = privateKeyToAccount(key as Hex);
    if (protocolSigner.address.toLowerCase() !== deployment.protocolSigner) {
      problems.push({
        field: "env PROTOCOL_SIGNER_KEY",
        reason: `its address ${protocolSigner.address.toLowerCase()} is not the deployment's protocolSigner ${deployment.protocolSigner}`,
      });
    }
  }

  const solverSecrets = new Map<string, string>();
  deployment.solvers.forEach((solver, index) => {
    const secret = env[solver.sharedSecretEnv];
    if (secret) solverSecrets.set(solver.id, secret);
    else if (solver.enabled) {
      problems.push({
        field: `solvers[${index}].sharedSecretEnv`,
        reason: `env ${solver.sharedSecretEnv} is not set`,
      });
    }
  });

  if (problems.length > 0 || !protocolSigner) throw new InvalidDeploymentError("environment", problems);
  return { rpcUrls, protocolSigner, solverSecrets };
}

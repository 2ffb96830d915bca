// The deployment's own contracts: the Reactor, the Executors (and every solver's filler), the adapter factory and
// adapters, the Multicall, and the tokens themselves. None of them is anyone's wallet: an output paid to one is stuck
// there or goes back to the solver, so a quote never names one as a recipient.
import type { Address } from "viem";
import type { Deployment } from "./schema.ts";

/** Lowercase addresses of the deployment's contracts. */
export function deploymentContracts(
  deployment: Pick<
    Deployment,
    | "reactor"
    | "executors"
    | "adapterFactory"
    | "multicall"
    | "adapters"
    | "solvers"
    | "inputTokens"
    | "outputTokens"
  >,
): ReadonlySet<Address> {
  const addresses: Address[] = [
    deployment.reactor,
    ...deployment.executors,
    ...deployment.solvers.map((solver) => solver.filler),
    deployment.adapterFactory,
    ...(deployment.multicall ? [deployment.multicall] : []),
    ...deployment.adapters.map((adapter) => adapter.address),
    ...deployment.inputTokens.map((token) => token.address),
    ...deployment.outputTokens.map((token) => token.address),
  ];
  return new Set(addresses.map((address) => address.toLowerCase() as Address));
}

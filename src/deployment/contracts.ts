// The deployment's own contracts: the Reactor, the Executors (and every solver's filler), the adapter factory and
// adapters, the Multicall, and the tokens themselves. None of them is anyone's wallet: an output paid to one is stuck
// there or goes back to the solver, so a quote never names one as a recipient.
import type { Address } from "viem";
import type { Deployment } from "./schema.ts";

type ContractFields = Pick<
  Deployment,
  | "reactor"
  | "executors"
  | "adapterFactory"
  | "multicall"
  | "adapters"
  | "solvers"
  | "inputTokens"
  | "outputTokens"
>;

/** Made once per deployment: every quote's and order's recipients are checked against it. */
const made = new WeakMap<ContractFields, ReadonlySet<Address>>();

/** Lowercase addresses of the deployment's contracts (a deployment is not changed once loaded). */
export function deploymentContracts(deployment: ContractFields): ReadonlySet<Address> {
  let contracts = made.get(deployment);
  if (!contracts) {
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
    contracts = new Set(addresses.map((address) => address.toLowerCase() as Address));
    made.set(deployment, contracts);
  }
  return contracts;
}

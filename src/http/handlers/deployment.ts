// GET /deployment: the public facts of the deployment this Sluice serves (src/deployment/public.ts).
import { PublicDeploymentSchema, publicDeployment } from "../../deployment/public.ts";
import type { Market } from "../../market/market.ts";
import type { Handler } from "../route.ts";

export const deploymentSchema = {
  tags: ["solvers"],
  summary: "The deployment this Sluice serves",
  description:
    "Its chain, Reactor and protocol signer, the input and output tokens (with each input token's minimum " +
    "amount), the adapters, the solvers configured now (id, name, Executor) and the auction's timings " +
    "(`solverTimeoutMs`, `quoteLifetimeSeconds`): what a solver operator needs to quote here. A Sluice addition.",
  response: { 200: PublicDeploymentSchema },
  descriptions: { 200: "The deployment's public facts" },
};

export function deployment(market: Pick<Market, "deployment" | "solvers">): Handler<typeof deploymentSchema> {
  return async () => publicDeployment(market.deployment, market.solvers.all());
}

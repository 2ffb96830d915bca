// GET /deployment: the public facts of the deployment a Sluice serves — its chain, Reactor, tokens, adapters and
// solvers, and the auction's timings — for solver operators (`sluice solver check --api …` builds its sample quote
// requests from them) and anyone checking which venue they talk to. Nothing in it is secret: all of it is on chain
// or in the shipped deployment files.
import type { Address } from "viem";
import { z } from "zod";
import { AddressSchema, ChainIdSchema, SolverIdSchema, Uint256StringSchema } from "../shared/wire.ts";
import type { Deployment } from "./schema.ts";

const TokenSchema = z.object({
  address: AddressSchema,
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int().min(0),
});

export const PublicDeploymentSchema = z
  .object({
    name: z.string().meta({ description: "The deployment's name (`mainnet`, `devnet`, …)" }),
    chainId: ChainIdSchema,
    chainName: z.string(),
    local: z
      .boolean()
      .meta({ description: "A local chain (the devnet): the dev helpers and `/dev/rpc` answer" }),
    reactor: AddressSchema,
    protocolSigner: AddressSchema,
    quoteLifetimeSeconds: z.number().int().meta({ description: "How long a quote can be ordered" }),
    solverTimeoutMs: z.number().int().meta({
      description: "How long an auction waits for a solver's answer; a later one counts as a timeout",
    }),
    inputTokens: z.array(
      TokenSchema.extend({
        minQuoteAmount: Uint256StringSchema.meta({
          description: "Below it, /quote answers 404 without asking the solvers",
        }),
      }),
    ),
    outputTokens: z.array(TokenSchema),
    adapters: z.array(z.object({ address: AddressSchema, label: z.string().optional() })),
    solvers: z
      .array(
        z.object({
          id: SolverIdSchema,
          name: z.string(),
          filler: AddressSchema.meta({ description: "Its Executor: the filler its quotes name" }),
          internal: z.boolean(),
          enabled: z.boolean(),
        }),
      )
      .meta({ description: "The solvers configured now (a devnet's can change while it runs)" }),
  })
  .meta({ id: "PublicDeployment" });

export type PublicDeployment = z.infer<typeof PublicDeploymentSchema>;

/** The solver facts the document shows (the directory's solvers carry more, secrets included). */
export interface PublicSolver {
  id: string;
  name: string;
  filler: Address;
  internal: boolean;
  enabled: boolean;
}

/** What the answer is made of: the deployment's public fields. */
export type PublicDeploymentFacts = Pick<
  Deployment,
  | "name"
  | "chainId"
  | "chainName"
  | "local"
  | "reactor"
  | "protocolSigner"
  | "quoteLifetimeSeconds"
  | "solverTimeoutMs"
  | "inputTokens"
  | "outputTokens"
  | "adapters"
>;

export function publicDeployment(
  deployment: PublicDeploymentFacts,
  solvers: readonly PublicSolver[],
): PublicDeployment {
  return {
    name: deployment.name,
    chainId: deployment.chainId,
    chainName: deployment.chainName,
    local: deployment.local,
    reactor: deployment.reactor,
    protocolSigner: deployment.protocolSigner,
    quoteLifetimeSeconds: deployment.quoteLifetimeSeconds,
    solverTimeoutMs: deployment.solverTimeoutMs,
    inputTokens: deployment.inputTokens.map((token) => ({
      address: token.address,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
      minQuoteAmount: token.minQuoteAmount,
    })),
    outputTokens: deployment.outputTokens.map((token) => ({
      address: token.address,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
    })),
    adapters: deployment.adapters.map((adapter) => ({
      address: adapter.address,
      ...(adapter.label ? { label: adapter.label } : {}),
    })),
    solvers: solvers.map(({ id, name, filler, internal, enabled }) => ({
      id,
      name,
      filler,
      internal,
      enabled,
    })),
  };
}

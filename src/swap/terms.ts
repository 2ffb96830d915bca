// The checks of a quote request against the deployment that the schema alone cannot make, each with its own error.
import { type Address, zeroAddress } from "viem";
import { deploymentContracts } from "../deployment/contracts.ts";
import type { Deployment, InputTokenConfig, TokenConfig } from "../deployment/schema.ts";
import type { ValidationIssue } from "../shared/errors.ts";
import { InvalidOutputsError, UnsupportedChainError, UnsupportedTokenError } from "./errors.ts";
import type { RequestedOutput } from "./outputs.ts";
import type { QuoteRequest } from "./schemas.ts";

export interface QuoteTerms {
  tokenIn: InputTokenConfig;
  tokenOut: TokenConfig;
  amount: bigint;
  swapper: Address;
  outputs: RequestedOutput[];
}

export function assertChain(deployment: Pick<Deployment, "chainId">, chainId: number, field: string): void {
  if (chainId !== deployment.chainId) {
    throw new UnsupportedChainError(field, chainId, deployment.chainId);
  }
}

export function findInputToken(deployment: Pick<Deployment, "inputTokens">, address: Address, field: string) {
  const token = deployment.inputTokens.find((t) => t.address === address);
  if (!token) throw new UnsupportedTokenError(address, field, "input");
  return token;
}

export function resolveQuoteTerms(deployment: Deployment, request: QuoteRequest): QuoteTerms {
  assertChain(deployment, request.tokenInChainId, "tokenInChainId");
  assertChain(deployment, request.tokenOutChainId, "tokenOutChainId");
  const tokenIn = findInputToken(deployment, request.tokenIn, "tokenIn");
  const tokenOut = deployment.outputTokens.find((t) => t.address === request.tokenOut);
  if (!tokenOut) throw new UnsupportedTokenError(request.tokenOut, "tokenOut", "output");

  const issues: ValidationIssue[] = [];
  request.outputs.forEach((output, index) => {
    if (output.token !== request.tokenOut)
      issues.push({ path: `outputs.${index}.token`, message: "must repeat tokenOut" });
    if (output.recipient)
      issues.push(...unpayable(deployment, output.recipient, `outputs.${index}.recipient`));
  });
  // An output without a recipient pays the swapper.
  if (request.outputs.some((output) => !output.recipient))
    issues.push(...unpayable(deployment, request.swapper, "swapper"));
  const remainders = request.outputs.filter((output) => output.portionBps === undefined).length;
  if (remainders !== 1) {
    issues.push({
      path: "outputs",
      message: `exactly one output must omit portionBps (found ${remainders})`,
    });
  }
  const feeBps = request.outputs.reduce((sum, output) => sum + (output.portionBps ?? 0), 0);
  if (feeBps >= 10_000)
    issues.push({ path: "outputs", message: `portionBps must sum below 10000 (found ${feeBps})` });
  if (issues.length > 0) throw new InvalidOutputsError(issues);

  return {
    tokenIn,
    tokenOut,
    amount: BigInt(request.amount),
    swapper: request.swapper,
    outputs: request.outputs.map((output) => ({
      token: output.token,
      recipient: output.recipient ?? request.swapper,
      ...(output.portionBps !== undefined ? { portionBps: output.portionBps } : {}),
    })),
  };
}

/**
 * A recipient nobody can pay: the token refuses a transfer to the zero address, so every fill reverts (and the solver
 * that won it would carry the blame); an output paid to one of the deployment's own contracts is stuck there or goes
 * back to the solver. Refused before any solver is asked.
 */
function unpayable(deployment: Deployment, recipient: Address, path: string): ValidationIssue[] {
  if (recipient === zeroAddress)
    return [{ path, message: "cannot receive an output: the token refuses transfers to the zero address" }];
  if (deploymentContracts(deployment).has(recipient))
    return [{ path, message: "cannot receive an output: it is one of this deployment's contracts" }];
  return [];
}

// POST /quote's body accepted by hand when it is well-formed: the value QuoteRequestSchema's parse gives (known keys
// in the schema's order, addresses lowercased, the routing preference defaulted), or undefined for anything else,
// which then goes through the schema to be refused with its issues. Every /quote paid a schema parse for a body
// that is almost always valid; this is a few comparisons. It never refuses, so the schema alone words every error.
import type { Address } from "viem";
import { MAX_QUOTE_OUTPUTS, type QuoteRequest } from "./schemas.ts";

const ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const DIGITS = /^\d+$/;
/** SolverIdSchema's pattern: no control character. */
const NO_CONTROL = /^\P{Cc}*$/u;
/** uint256's largest value has 78 digits; it and longer ones go to the schema (which compares by value). */
const SAFE_UINT256_DIGITS = 77;
const MAX_SOLVER_IDS = 50;
const MAX_SOLVER_ID_LENGTH = 200;

type Output = QuoteRequest["outputs"][number];

/** QuoteRequestSchema's output for `body` when the schema accepts it as is checked here; undefined otherwise. */
export function acceptQuoteRequest(body: unknown): QuoteRequest | undefined {
  if (!isRecord(body)) return undefined;
  const { tokenInChainId, tokenOutChainId, tokenIn, tokenOut, type, amount, swapper } = body;
  if (!isChainId(tokenInChainId) || !isChainId(tokenOutChainId)) return undefined;
  if (!isAddress(tokenIn) || !isAddress(tokenOut) || !isAddress(swapper)) return undefined;
  if (type !== "EXACT_INPUT") return undefined;
  if (typeof amount !== "string" || amount.length > SAFE_UINT256_DIGITS || !DIGITS.test(amount))
    return undefined;
  const outputs = acceptOutputs(body.outputs);
  if (!outputs) return undefined;
  const { solverIds, routingPreference, permitAmount } = body;
  if (
    (solverIds === undefined && "solverIds" in body) ||
    (permitAmount === undefined && "permitAmount" in body)
  )
    return undefined;
  if (solverIds !== undefined && !isSolverIds(solverIds)) return undefined;
  if (routingPreference !== undefined && routingPreference !== "BEST_PRICE") return undefined;
  if (permitAmount !== undefined && permitAmount !== "EXACT") return undefined;
  const request: QuoteRequest = {
    tokenInChainId,
    tokenOutChainId,
    tokenIn: lower(tokenIn),
    tokenOut: lower(tokenOut),
    type,
    amount,
    swapper: lower(swapper),
    outputs,
    ...(solverIds !== undefined ? { solverIds: [...solverIds] } : {}),
    routingPreference: "BEST_PRICE",
    ...(permitAmount !== undefined ? { permitAmount } : {}),
  };
  return request;
}

function acceptOutputs(value: unknown): Output[] | undefined {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_QUOTE_OUTPUTS) return undefined;
  const outputs: Output[] = [];
  for (const item of value) {
    if (!isRecord(item)) return undefined;
    const { token, recipient, portionBps } = item;
    if (!isAddress(token)) return undefined;
    // A key present with no value (not JSON, but the schema keeps it): left to the schema.
    if (
      (recipient === undefined && "recipient" in item) ||
      (portionBps === undefined && "portionBps" in item)
    )
      return undefined;
    if (recipient !== undefined && !isAddress(recipient)) return undefined;
    if (portionBps !== undefined && !isPortionBps(portionBps)) return undefined;
    outputs.push({
      token: lower(token),
      ...(recipient !== undefined ? { recipient: lower(recipient) } : {}),
      ...(portionBps !== undefined ? { portionBps } : {}),
    });
  }
  return outputs;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isChainId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

function isAddress(value: unknown): value is string {
  return typeof value === "string" && ADDRESS.test(value);
}

function isPortionBps(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= 9999;
}

function isSolverIds(value: unknown): value is string[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_SOLVER_IDS) return false;
  for (const id of value)
    if (typeof id !== "string" || id.length < 1 || id.length > MAX_SOLVER_ID_LENGTH || !NO_CONTROL.test(id))
      return false;
  return true;
}

function lower(address: string): Address {
  return address.toLowerCase() as Address;
}

// The one place that tells "the chain's RPC could not be read" from every other chain failure. The transport
// (client.ts) marks each request that no endpoint answered — a refused or broken connection, a timeout, an HTTP error
// status, a rate limit — with an RpcUnreachableError, so viem's own wrapping (a call error, a contract error, a
// multicall's per-call failure) keeps it in the cause chain; a revert or any other answer of the chain is never one.
import {
  HttpRequestError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  SocketClosedError,
  TimeoutError,
  BaseError as ViemBaseError,
  WebSocketRequestError,
} from "viem";
import type { OutageError } from "../outages.ts";
import { type ChainName, ChainUnavailableError } from "./errors.ts";

/** A JSON-RPC request no endpoint of the chain answered; its cause is the last endpoint's failure. */
export class RpcUnreachableError extends ViemBaseError implements OutageError {
  override name = "RpcUnreachableError";
  readonly outage = "chain";
  constructor(
    readonly chain: ChainName,
    method: string,
    cause: Error,
  ) {
    super(`${method}: no RPC endpoint of ${chain.name} (${chain.chainId}) answered`, { cause });
  }
}

/** An endpoint's failure that says nothing about the chain: it did not answer (or not in time, or refused to). */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const matches = (e: unknown) =>
    e instanceof HttpRequestError ||
    e instanceof TimeoutError ||
    e instanceof WebSocketRequestError ||
    e instanceof SocketClosedError ||
    e instanceof LimitExceededRpcError ||
    e instanceof ResourceUnavailableRpcError ||
    e instanceof RpcUnreachableError;
  if (error instanceof ViemBaseError) return Boolean(error.walk(matches));
  return matches(error);
}

/** The RpcUnreachableError in `error`'s cause chain, if any. */
export function rpcUnreachable(error: unknown): RpcUnreachableError | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 12; depth++) {
    if (current instanceof RpcUnreachableError) return current;
    current = current.cause;
  }
  return undefined;
}

/** `error` as a ChainUnavailableError (answered 503 CHAIN_UNAVAILABLE) when the chain could not be read. */
export function asChainUnavailable(error: unknown): ChainUnavailableError | undefined {
  if (error instanceof ChainUnavailableError) return error;
  const unreachable = rpcUnreachable(error);
  return unreachable ? new ChainUnavailableError(unreachable.chain, { cause: error }) : undefined;
}

/**
 * A multicall's results with failures allowed, checked: a call that failed because the chain could not be read
 * (viem reports a failed `eth_call` as a failure of every call in it) throws that failure, so a reader never takes
 * "could not read" for "the contract said no" (zero capacity, an unknown nonce).
 */
export function answeredResults<Result extends { status: "success" | "failure"; error?: unknown }>(
  results: Result[],
): Result[] {
  for (const result of results)
    if (result.status === "failure" && isTransportFailure(result.error)) throw result.error;
  return results;
}

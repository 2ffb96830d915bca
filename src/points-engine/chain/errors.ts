// Named failures of reading the points engine's scope and events from the chain. They stop the engine's start or
// step with a message that names the contract and block; none of them is an HTTP answer.
import { BaseError } from "../../shared/errors.ts";

/** A configured vault uses a FullRestakeDelegator: its stake counts once per operator, so it is never in scope. */
export class FullRestakeVaultError extends BaseError {
  override name = "FullRestakeVaultError";
  constructor(
    readonly vault: string,
    delegator: string,
  ) {
    super(
      `vault ${vault} uses a FullRestakeDelegator (${delegator}), which the points engine excludes: ` +
        "remove it from pointsEngine.vaults",
      { details: { vault, delegator } },
    );
  }
}

/** A configured contract is not what the scope needs (no vault of the factory, no delegator yet, no feed, …). */
export class ScopeContractError extends BaseError {
  override name = "ScopeContractError";
  constructor(reason: string, details: Record<string, string>) {
    super(`points engine scope: ${reason}`, { details });
  }
}

/** The RPC refused eth_getLogs even for a single block. */
export class LogRangeRefusedError extends BaseError {
  override name = "LogRangeRefusedError";
  constructor(block: bigint, options: { cause?: unknown } = {}) {
    super(`the RPC refused eth_getLogs for block ${block} alone`, {
      details: { block: block.toString() },
      ...(options.cause !== undefined ? { cause: options.cause } : {}),
    });
  }
}

/** A block that had logs vanished before its header was read: the chain reorganised during the read. */
export class BlockReorganisedError extends BaseError {
  override name = "BlockReorganisedError";
  constructor(
    readonly block: bigint,
    hash: string,
  ) {
    super(`block ${block} (${hash}) left the chain while its logs were read; read the range again`, {
      details: { block: block.toString(), hash },
    });
  }
}

// Named failures of the points ledger: a scope it cannot count, steps out of order, events that contradict its
// state, and persisted records that do not fit the scope.
import { BaseError, type ErrorDetails } from "../../shared/errors.ts";

/** The scope has numbers the formula cannot use (fees above 100 %, unknown subnetwork owners, ...). */
export class LedgerScopeError extends BaseError {
  override name = "LedgerScopeError";
  constructor(message: string, details: ErrorDetails) {
    super(message, { details });
  }
}

/** A step to a block that is not after the ledger's position, or that skips its accrual start. */
export class LedgerStepError extends BaseError {
  override name = "LedgerStepError";
  constructor(message: string, details: ErrorDetails) {
    super(message, { details });
  }
}

/** An event that the ledger's state cannot have produced (burning shares a staker does not hold, ...). */
export class LedgerEventError extends BaseError {
  override name = "LedgerEventError";
  constructor(message: string, details: ErrorDetails) {
    super(message, { details });
  }
}

/** Persisted records that cannot be restored under this scope. */
export class LedgerRecordError extends BaseError {
  override name = "LedgerRecordError";
  constructor(message: string, details: ErrorDetails) {
    super(message, { details });
  }
}

/** A read about a vault the ledger does not count. */
export class LedgerUnknownVaultError extends BaseError {
  override name = "LedgerUnknownVaultError";
  constructor(vault: string) {
    super(`Vault ${vault} is not in the points ledger's scope`, { details: { vault } });
  }
}

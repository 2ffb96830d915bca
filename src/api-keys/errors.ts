// Named failures of API keys: a request whose key is unknown or revoked, and the operator's key commands.
import { BaseError } from "../shared/errors.ts";

/** The `x-api-key` a request carries is no live key (unknown, or revoked): 401, never the anonymous tier instead. */
export class InvalidApiKeyError extends BaseError {
  override name = "InvalidApiKeyError";
  constructor() {
    super("The x-api-key is unknown or revoked; send a live key, or none for the anonymous tier");
  }
}

/** The same refusal on a partner route (/entities, /points), answered in the partner envelope. */
export class PartnerInvalidApiKeyError extends InvalidApiKeyError {
  override name = "PartnerInvalidApiKeyError";
}

/** `keys create` with a name that has (or had) a key: a name names one integrator for good. */
export class ApiKeyNameTakenError extends BaseError {
  override name = "ApiKeyNameTakenError";
  constructor(name: string) {
    super(`An API key named ${name} exists (or existed); choose another name`, { details: { name } });
  }
}

/** `keys revoke` of a name that has no live key. */
export class UnknownApiKeyError extends BaseError {
  override name = "UnknownApiKeyError";
  constructor(name: string) {
    super(`No live API key is named ${name}`, { details: { name } });
  }
}

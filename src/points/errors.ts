// Named failures of the points endpoints (DESIGN.md §5); the HTTP layer answers them with the partner envelope.
import { BaseError } from "../shared/errors.ts";

/** No points snapshot has been ingested at all. */
export class NoPointsDataError extends BaseError {
  override name = "NoPointsDataError";
  constructor() {
    super("No points data has been ingested yet");
  }
}

/** A vault that neither the registry nor any points snapshot knows. */
export class UnknownVaultError extends BaseError {
  override name = "UnknownVaultError";
  constructor(vault: string) {
    super(`Unknown vault ${vault}`);
  }
}

/** The receiver-at-block route, retired: it refuses whatever it is asked. */
export class DeprecatedPointsRouteError extends BaseError {
  override name = "DeprecatedPointsRouteError";
  constructor() {
    super("This endpoint is deprecated and no longer served; use /points/receiver/{address}/current");
  }
}

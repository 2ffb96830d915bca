// Named failures of the points endpoints, answered with the partner envelope (DESIGN.md §5).
import { PartnerError } from "../http/errors.ts";

/** No points snapshot has been ingested at all. */
export class NoPointsDataError extends PartnerError {
  override name = "NoPointsDataError";
  constructor() {
    super(404, "noData", "No points data has been ingested yet");
  }
}

/** A vault that neither the registry nor any points snapshot knows. */
export class UnknownVaultError extends PartnerError {
  override name = "UnknownVaultError";
  constructor(vault: string) {
    super(404, "noResultsFound", `Unknown vault ${vault}`);
  }
}

/** The receiver-at-block route, retired: it answers 410 whatever it is asked. */
export class DeprecatedPointsRouteError extends PartnerError {
  override name = "DeprecatedPointsRouteError";
  constructor() {
    super(
      410,
      "pageNotFound",
      "This endpoint is deprecated and no longer served; use /points/receiver/{address}/current",
    );
  }
}

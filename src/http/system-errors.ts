// Named failures of the system routes themselves (not of a domain).
import { BaseError } from "../shared/errors.ts";

/** GET /metrics on the public port: Prometheus metrics are the internal listener's, never the public one's. */
export class MetricsElsewhereError extends BaseError {
  override name = "MetricsElsewhereError";
  constructor(metricsUrl: string | undefined) {
    super(
      `Prometheus metrics are served on the internal listener (INTERNAL_HOST/INTERNAL_PORT), not on the public port${
        metricsUrl ? `: ${metricsUrl}` : ""
      }`,
      { details: metricsUrl ? { metricsUrl } : {} },
    );
  }
}

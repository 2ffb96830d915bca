// Named refusals of the request limits: a caller over its rate (429), and a replica shedding /quote rounds (503).
import { BaseError } from "../shared/errors.ts";
import type { LimitClass } from "./classes.ts";

/** The caller has used its class's limit for the current window: retry after `retryAfterSeconds`. */
export class RateLimitedError extends BaseError {
  override name = "RateLimitedError";
  readonly retryAfterSeconds: number;
  constructor(
    readonly limitClass: LimitClass,
    limit: number,
    retryAfterSeconds: number,
  ) {
    super(`Rate limit of the ${limitClass} class reached (${limit} per window); retry later`, {
      details: { limitClass, limit, retryAfterSeconds },
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The same refusal on a partner route (/entities, /points), answered in the partner envelope. */
export class PartnerRateLimitedError extends RateLimitedError {
  override name = "PartnerRateLimitedError";
}

export type OverloadReason = "quote_rounds" | "event_loop_lag";

/** This replica sheds /quote rounds now (too many in flight, or its event loop lags): retry, here or elsewhere. */
export class OverloadedError extends BaseError {
  override name = "OverloadedError";
  readonly retryAfterSeconds: number;
  constructor(reason: OverloadReason, retryAfterSeconds = 1) {
    super(
      reason === "quote_rounds"
        ? "Too many quote rounds in flight; retry shortly"
        : "The server is overloaded; retry shortly",
      { details: { reason, retryAfterSeconds } },
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

// The failures of GET /auctions/{requestId}: a round nobody ran, and a round whose quotes can still be taken.
import { BaseError } from "../shared/errors.ts";

/** No /quote round and no /order hard round was stored under this request id. */
export class AuctionNotFoundError extends BaseError {
  override name = "AuctionNotFoundError";
  constructor(requestId: string) {
    super("Unknown auction: no round was stored under this request id", { details: { requestId } });
  }
}

/** The round's quotes can still be taken: its results are public only from `availableAt`. */
export class AuctionOpenError extends BaseError {
  override name = "AuctionOpenError";
  constructor(
    requestId: string,
    readonly availableAt: Date,
  ) {
    super("The auction's results are not public yet: its quotes can still be taken", {
      details: { requestId, availableAt: availableAt.toISOString() },
    });
  }
}

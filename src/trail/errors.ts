// The trail's one failure: nothing stored answers to the id asked about.
import { BaseError } from "../shared/errors.ts";

/** No order has this id, or no recorded call (a /quote round, an /order call) has this request id. */
export class TrailNotFoundError extends BaseError {
  override name = "TrailNotFoundError";
  constructor(query: { orderId: string } | { requestId: string }) {
    super("orderId" in query ? "No order has this id" : "No quote round or order call has this request id", {
      details: query,
    });
  }
}

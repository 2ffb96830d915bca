// POST /cancel: validate → CancelService (the order's facts, chain time) → the unsigned invalidateNonce transaction.
import type { CancelService } from "../../orders/cancel-service.ts";
import { OrderNotFoundError, OrderNotOpenError } from "../../orders/errors.ts";
import { CancelRequestSchema, CancelResponseSchema } from "../../orders/schemas.ts";
import type { Handler } from "../route.ts";

export const cancelSchema = {
  tags: ["orders"],
  summary: "The transaction that cancels an open order on-chain",
  description:
    "Answers the unsigned `Reactor.invalidateNonce(nonce)` transaction, in `/check_approval`'s shape, for the " +
    "order's swapper to send; Sluice sends nothing. Once it is mined the indexer marks the order `cancelled` (the " +
    "order stream reports it). Sent from any other account it invalidates that account's nonce and changes " +
    "nothing. 409 `ORDER_NOT_OPEN` unless the order is `open` or `insufficient-funds` and its deadline has not " +
    "passed by chain time.",
  body: CancelRequestSchema,
  response: { 200: CancelResponseSchema },
  errors: [OrderNotFoundError, OrderNotOpenError],
  chain: true,
  database: true,
  descriptions: { 200: "The transaction the swapper sends to cancel the order" },
};

export function cancel(service: CancelService): Handler<typeof cancelSchema> {
  return async (request) => ({ requestId: request.id, ...(await service.cancel(request.body.orderId)) });
}

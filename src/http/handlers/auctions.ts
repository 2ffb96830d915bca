// GET /auctions/{requestId}: a round's results, public once its quotes can no longer be taken.
import { AuctionNotFoundError, AuctionOpenError } from "../../auctions/errors.ts";
import { AuctionParamsSchema, AuctionResultSchema } from "../../auctions/schemas.ts";
import type { AuctionResults } from "../../auctions/service.ts";
import type { Handler } from "../route.ts";

export const auctionSchema = {
  tags: ["swap"],
  summary: "A quote round's or hard round's results",
  description:
    "Every solver's outcome (quoted amount, declined, or rejected with its reason code), latency, rank and offered " +
    "legs, which entries became orders, and for a hard round (an /order call's `requestId`) the winner and its " +
    "committed amount. Public from the round's quote deadline + 10 s, so quotes are never shown while they can " +
    "still be taken: before that 409 `AUCTION_OPEN` with `details.availableAt`.",
  params: AuctionParamsSchema,
  response: { 200: AuctionResultSchema },
  errors: [AuctionNotFoundError, AuctionOpenError],
  database: true,
  descriptions: { 200: "The round's results" },
};

export function auction(auctions: AuctionResults): Handler<typeof auctionSchema> {
  return async (request) => auctions.result(request.params.requestId);
}

// The wire types the client speaks, named. Each is read from the generated OpenAPI types (openapi.gen.ts) by path
// and operation, not by component name, so they follow the document when its schemas are renamed.
import type { paths } from "./openapi.gen.ts";

type JsonBody<Operation> = Operation extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
type JsonAnswer<Operation, Status extends number = 200> = Operation extends {
  responses: { [S in Status]: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

export type QuoteRequest = JsonBody<paths["/quote"]["post"]>;
export type QuoteResponse = JsonAnswer<paths["/quote"]["post"]>;
/** One solver's quote: `solver` (id, name, logo), `quote` (what POST /order takes back), `signatureData`. */
export type QuoteEntry = QuoteResponse["quotes"][number];
export type SignatureData = QuoteEntry["signatureData"];

export type CheckApprovalRequest = JsonBody<paths["/check_approval"]["post"]>;
export type CheckApprovalResponse = JsonAnswer<paths["/check_approval"]["post"]>;
/** A transaction for the wallet to send as is (`to`, `data`, `value`…). */
export type ApprovalTransaction = NonNullable<CheckApprovalResponse["approval"]>;

export type OrderRequest = JsonBody<paths["/order"]["post"]>;
export type OrderResponse = JsonAnswer<paths["/order"]["post"]>;

export type AuctionResult = JsonAnswer<paths["/auctions/{requestId}"]["get"]>;
/** One solver's answer in a round: outcome, reason code, amount, latency, rank, offered legs, order. */
export type AuctionAnswer = AuctionResult["solvers"][number];
export type CancelRequest = JsonBody<paths["/cancel"]["post"]>;
export type CancelResponse = JsonAnswer<paths["/cancel"]["post"]>;

// The client reads Sluice's own records: it never asks for `view=rfq-backend` (the real document's keys only, for
// solvers whose decoders refuse others), so that parameter and that record shape are left out of its types.
type RawOrdersResponse = JsonAnswer<paths["/orders"]["get"]>;
export type OrdersQuery = Omit<NonNullable<paths["/orders"]["get"]["parameters"]["query"]>, "view">;
/** An order record as Sluice writes it. */
export type Order = Extract<RawOrdersResponse["orders"][number], { createdAt: string }>;
export type OrdersResponse = Omit<RawOrdersResponse, "orders"> & { orders: Order[] };
export type OrderStatus = Order["orderStatus"];

export type SolversResponse = JsonAnswer<paths["/solvers"]["get"]>;
/** A configured solver with its cooldown and its scorecard over the last hour, day and week. */
export type SolverScorecard = JsonAnswer<paths["/solvers/{id}"]["get"]>;
export type ScorecardWindow = SolverScorecard["scorecard"]["hour"];

/** The swap flow's error codes, as the document lists them. */
export type SwapErrorCode = JsonAnswer<paths["/quote"]["post"], 400>["error"]["code"];

export type DevFaucetResponse = JsonAnswer<paths["/dev/faucet"]["get"]>;
export type DevFaucetAsset = DevFaucetResponse["assets"][number];
export type DevFaucetFundResponse = JsonAnswer<paths["/dev/faucet"]["post"]>;
export type DevFundResponse = JsonAnswer<paths["/dev/fund"]["post"]>;

export type OrderStreamQuery = NonNullable<paths["/orders/stream"]["get"]["parameters"]["query"]>;

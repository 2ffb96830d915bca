// GET /orders: filters, the solver view, ordering, and the streamed list. Answers are written by hand (a buffer or
// a stream skips the serializer) and typed OrdersResponse; the tests validate the bodies against its schema.
import type { Database } from "../../db/client.ts";
import { InvalidCursorError, MissingOrdersFilterError } from "../../orders/errors.ts";
import { listOrders, wholeAnswer } from "../../orders/list.ts";
import { isOpenOrdersPoll, type OpenOrdersCache } from "../../orders/open-orders-cache.ts";
import {
  type OrdersQuery,
  OrdersQuerySchema,
  OrdersResponseSchema,
  type OrderView,
} from "../../orders/schemas.ts";
import type { SolverDirectory } from "../../solvers/directory.ts";
import { logAsRoutine } from "../request-log.ts";
import type { Handler } from "../route.ts";

export const ordersSchema = {
  tags: ["orders"],
  summary: "Stored orders, newest first",
  description:
    "At least one of orderId, orderIds, orderHash, orderHashes, orderStatus, swapper, filler is required. " +
    "`solverId` keeps that solver's orders and `filler` that Executor's; either adds `encodedOrder`, " +
    "`protocolSignature`, `deadline` and `filler` to the open orders it keeps (public by design: only the " +
    "order's filler can fill it). `sortKey` orders by createdAt (default) or updatedAt. The whole list is " +
    "returned (streamed) unless `limit` is given; then `cursor` pages.",
  querystring: OrdersQuerySchema,
  response: { 200: OrdersResponseSchema },
  errors: [MissingOrdersFilterError, InvalidCursorError],
  database: true,
  descriptions: { 200: "The matching orders, newest first (a page of them with `limit`)" },
};

/** The solvers whose deployment entry may set the records' shape of their polls (`ordersView`). */
export type PollingSolvers = Pick<SolverDirectory, "byId" | "byFiller">;

/**
 * The records' shape when the request does not say: the polling solver's `ordersView` (found by `solverId`, else by
 * `filler`), for solvers that cannot add a parameter to their poll.
 */
function solverView(solvers: PollingSolvers, query: OrdersQuery): OrderView | undefined {
  const solver = query.solverId
    ? solvers.byId(query.solverId)
    : query.filler
      ? solvers.byFiller(query.filler)
      : undefined;
  return solver?.ordersView;
}

export function orders(
  database: Database,
  openOrders: OpenOrdersCache,
  solvers: PollingSolvers,
): Handler<typeof ordersSchema> {
  return async (request, reply) => {
    const view = request.query.view ?? solverView(solvers, request.query);
    const query = view ? { ...request.query, view } : request.query;
    if (isOpenOrdersPoll(query)) {
      // Solvers poll their open orders twice a second: those lines are at debug.
      logAsRoutine(request);
      const kept = await openOrders.get(query);
      if (kept) return reply.type("application/json").send(wholeAnswer(request.id, kept));
    }
    const answer = await listOrders(database, query, request.id);
    return reply.type("application/json").send(answer);
  };
}

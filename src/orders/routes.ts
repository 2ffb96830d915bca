// GET /orders: filters, the solver view, ordering, and the streamed list.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type Clock, systemClock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import { SwapErrorSchema } from "../http/errors.ts";
import { logAsRoutine } from "../http/request-log.ts";
import { listOrders, readShortList, wholeAnswer } from "./list.ts";
import { isOpenOrdersPoll, OpenOrdersCache } from "./open-orders-cache.ts";
import type { OrderEvents } from "./order-events.ts";
import { type OrdersQuery, OrdersQuerySchema, OrdersResponseSchema } from "./schemas.ts";

export interface OrdersRoutesOptions {
  database: Database;
  /** This process's order changes: a kept open-orders answer is dropped at each. */
  orderEvents: OrderEvents;
  clock?: Clock;
}

export const ordersRoutes: FastifyPluginAsyncZod<OrdersRoutesOptions> = async (
  app,
  { database, orderEvents, clock = systemClock },
) => {
  const openOrders = new OpenOrdersCache((query) => readShortList(database, query), clock);
  const unsubscribe = orderEvents.subscribe(() => openOrders.invalidate());
  app.addHook("onClose", async () => {
    unsubscribe();
  });

  async function answer(query: OrdersQuery, requestId: string) {
    if (isOpenOrdersPoll(query)) {
      const orders = await openOrders.get(query);
      if (orders) return wholeAnswer(requestId, orders);
    }
    return listOrders(database, query, requestId);
  }

  app.get(
    "/orders",
    {
      schema: {
        tags: ["orders"],
        summary: "Stored orders, newest first",
        description:
          "At least one of orderId, orderIds, orderHash, orderHashes, orderStatus, swapper, filler is required. " +
          "`solverId` keeps that solver's orders and adds `encodedOrder`, `protocolSignature`, `deadline` and " +
          "`filler` to its own open orders. `sortKey` orders by createdAt (default) or updatedAt. The whole list is " +
          "returned (streamed) unless `limit` is given; then `cursor` pages.",
        querystring: OrdersQuerySchema,
        response: { 200: OrdersResponseSchema, 400: SwapErrorSchema },
      },
    },
    async (request, reply) => {
      // Written by hand (a buffer or a stream skips the serializer): records are typed by the schema and the
      // tests validate the bodies against it.
      // Solvers poll their open orders twice a second: those lines are at debug.
      if (isOpenOrdersPoll(request.query)) logAsRoutine(request);
      const body = await answer(request.query, request.id);
      return reply.type("application/json").send(body as never);
    },
  );
};

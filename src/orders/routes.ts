// GET /orders: filters, the solver view, ordering, and the streamed list.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Database } from "../db/client.ts";
import { SwapErrorSchema } from "../http/errors.ts";
import { listOrders } from "./list.ts";
import { OrdersQuerySchema, OrdersResponseSchema } from "./schemas.ts";

export const ordersRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
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
      const body = await listOrders(database, request.query, request.id);
      return reply.type("application/json").send(body as never);
    },
  );
};

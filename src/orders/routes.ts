// GET /orders: filters, the solver view, ordering, and the streamed list.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Database } from "../db/client.ts";
import { SwapErrorSchema } from "../http/errors.ts";
import { streamOrders } from "./list.ts";
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
      // Streamed by hand (the serializer is skipped for streams): records are typed by the schema and the tests
      // validate streamed bodies against it.
      const body = streamOrders(database, request.query, request.id);
      return reply.type("application/json").send(body as never);
    },
  );
};

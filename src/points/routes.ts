// The six points routes (spec §4.2). Validation failures answer 400 `anErrorOccurred` through the server's
// error handler; the named errors of ./errors.ts carry the other partner codes.
import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../http/context.ts";
import { PartnerErrorSchema } from "../http/errors.ts";
import { AddressSchema, BlockNumberParamSchema } from "../shared/wire.ts";
import { DeprecatedPointsRouteError } from "./errors.ts";
import { PointsRepository } from "./repository.ts";
import {
  PointsByReceiverListSchema,
  PointsByReceiverTypeListSchema,
  PointsByVaultListSchema,
} from "./schemas.ts";
import { PointsService } from "./service.ts";

const JSON_TYPE = "application/json; charset=utf-8";

const NEAREST_NOTE =
  "Per points type, the snapshot whose block is nearest to `blockNumber` is used (the earlier one on a tie); " +
  "each record's `last_block` is the block chosen for its type.";
const CURRENT_NOTE = "Per points type, that type's newest snapshot; each record's `last_block` is its block.";

const errors = { 400: PartnerErrorSchema, 404: PartnerErrorSchema, 500: PartnerErrorSchema };

export const pointsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const points = new PointsService(new PointsRepository(context.database), context.database, context.clock);

  app.get(
    "/points/receiver/:address/current",
    {
      schema: {
        tags: ["points"],
        summary: "A receiver's current points per vault",
        description: `${CURRENT_NOTE} A receiver with no points gets \`[]\`.`,
        params: z.object({ address: AddressSchema }),
        response: { 200: PointsByVaultListSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.type(JSON_TYPE).send((await points.receiverCurrent(request.params.address)) as never),
  );

  app.get(
    "/points/vault/:address/current",
    {
      schema: {
        tags: ["points"],
        summary: "A vault's current points per receiver",
        description: `${CURRENT_NOTE} The list is complete (not paginated) and streamed.`,
        params: z.object({ address: AddressSchema }),
        response: { 200: PointsByReceiverListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const chunks = await points.vaultByReceiver(request.params.address);
      // Written as it is read: memory stays flat however many receivers the vault has.
      return reply
        .type(JSON_TYPE)
        .send(Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 }) as never);
    },
  );

  app.get(
    "/points/vault/:address/:blockNumber",
    {
      schema: {
        tags: ["points"],
        summary: "A vault's points per receiver type at a block",
        description: NEAREST_NOTE,
        params: z.object({ address: AddressSchema, blockNumber: BlockNumberParamSchema }),
        response: { 200: PointsByReceiverTypeListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const json = await points.vaultByReceiverType(request.params.address, request.params.blockNumber);
      return reply.type(JSON_TYPE).send(json as never);
    },
  );

  app.get(
    "/points/total/current",
    {
      schema: {
        tags: ["points"],
        summary: "Current points per vault, all vaults",
        description: CURRENT_NOTE,
        response: { 200: PointsByVaultListSchema, ...errors },
      },
    },
    async (_request, reply) => reply.type(JSON_TYPE).send((await points.totals("current")) as never),
  );

  app.get(
    "/points/total/:blockNumber",
    {
      schema: {
        tags: ["points"],
        summary: "Points per vault at a block, all vaults",
        description: NEAREST_NOTE,
        params: z.object({ blockNumber: BlockNumberParamSchema }),
        response: { 200: PointsByVaultListSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.type(JSON_TYPE).send((await points.totals(request.params.blockNumber)) as never),
  );

  app.get(
    "/points/receiver/:address/:blockNumber",
    {
      schema: {
        tags: ["points"],
        summary: "Deprecated: a receiver's points at a block",
        description:
          "Retired. Answers 410 with the partner error body to every request, whatever its parameters.",
        deprecated: true,
        // Deliberately unvalidated: even malformed parameters get the 410.
        params: z.object({ address: z.string(), blockNumber: z.string() }),
        response: { 410: PartnerErrorSchema },
      },
    },
    async () => {
      throw new DeprecatedPointsRouteError();
    },
  );
};

// The six points routes (spec §4.2). Validation failures answer 400 `anErrorOccurred` through the server's error
// handler; the points service's named errors carry the other partner codes. Answers are JSON the service prepared
// (cached per snapshot set, or streamed as it is read).
import { z } from "zod";
import { DeprecatedPointsRouteError, NoPointsDataError, UnknownVaultError } from "../../points/errors.ts";
import {
  PointsByReceiverListSchema,
  PointsByReceiverTypeListSchema,
  PointsByVaultListSchema,
} from "../../points/schemas.ts";
import type { PointsService } from "../../points/service.ts";
import { jsonStream } from "../../shared/json-text.ts";
import { AddressSchema, BlockNumberParamSchema } from "../../shared/wire.ts";
import type { Handler } from "../route.ts";

const JSON_TYPE = "application/json; charset=utf-8";

const NEAREST_NOTE =
  "Per points type, the snapshot whose block is nearest to `blockNumber` is used (the earlier one on a tie); " +
  "each record's `last_block` is the block chosen for its type.";
const CURRENT_NOTE = "Per points type, that type's newest snapshot; each record's `last_block` is its block.";

// 400 for parameters that fail validation, 500 `ooops` when the points cannot be read (route-answers.ts).
const failures = { errors: [NoPointsDataError, UnknownVaultError], database: true } as const;

export const receiverCurrentSchema = {
  tags: ["points"],
  summary: "A receiver's current points per vault",
  description: `${CURRENT_NOTE} A receiver with no points gets \`[]\`.`,
  params: z.object({ address: AddressSchema }),
  response: { 200: PointsByVaultListSchema },
  ...failures,
  descriptions: { 200: "The receiver's points, one record per vault and points type" },
};

export function receiverCurrent(points: PointsService): Handler<typeof receiverCurrentSchema> {
  return async (request, reply) =>
    reply.type(JSON_TYPE).send(await points.receiverCurrent(request.params.address));
}

export const vaultCurrentSchema = {
  tags: ["points"],
  summary: "A vault's current points per receiver",
  description: `${CURRENT_NOTE} The list is complete (not paginated) and streamed.`,
  params: z.object({ address: AddressSchema }),
  response: { 200: PointsByReceiverListSchema },
  ...failures,
  descriptions: { 200: "The vault's points, one record per receiver and points type" },
};

export function vaultCurrent(points: PointsService): Handler<typeof vaultCurrentSchema> {
  return async (request, reply) => {
    const answer = await points.vaultByReceiver(request.params.address);
    if (Buffer.isBuffer(answer)) return reply.type(JSON_TYPE).send(answer);
    // Written as it is read: memory stays flat however many receivers the vault has.
    return reply.type(JSON_TYPE).send(jsonStream(answer, { highWaterMark: 64 * 1024 }));
  };
}

export const vaultAtBlockSchema = {
  tags: ["points"],
  summary: "A vault's points per receiver type at a block",
  description: NEAREST_NOTE,
  params: z.object({ address: AddressSchema, blockNumber: BlockNumberParamSchema }),
  response: { 200: PointsByReceiverTypeListSchema },
  ...failures,
  descriptions: { 200: "The vault's points at that block, one record per receiver type and points type" },
};

export function vaultAtBlock(points: PointsService): Handler<typeof vaultAtBlockSchema> {
  return async (request, reply) =>
    reply
      .type(JSON_TYPE)
      .send(await points.vaultByReceiverType(request.params.address, request.params.blockNumber));
}

export const totalCurrentSchema = {
  tags: ["points"],
  summary: "Current points per vault, all vaults",
  description: CURRENT_NOTE,
  response: { 200: PointsByVaultListSchema },
  ...failures,
  descriptions: { 200: "Every vault's current points, one record per vault and points type" },
};

export function totalCurrent(points: PointsService): Handler<typeof totalCurrentSchema> {
  return async (_request, reply) => reply.type(JSON_TYPE).send(await points.totals("current"));
}

export const totalAtBlockSchema = {
  tags: ["points"],
  summary: "Points per vault at a block, all vaults",
  description: NEAREST_NOTE,
  params: z.object({ blockNumber: BlockNumberParamSchema }),
  response: { 200: PointsByVaultListSchema },
  ...failures,
  descriptions: { 200: "Every vault's points at that block, one record per vault and points type" },
};

export function totalAtBlock(points: PointsService): Handler<typeof totalAtBlockSchema> {
  return async (request, reply) =>
    reply.type(JSON_TYPE).send(await points.totals(request.params.blockNumber));
}

export const receiverAtBlockSchema = {
  tags: ["points"],
  summary: "Deprecated: a receiver's points at a block",
  description: "Retired. Answers 410 with the partner error body to every request, whatever its parameters.",
  deprecated: true,
  // Deliberately unvalidated (no params schema: the document lists the path's parameters as strings): even malformed
  // parameters get the 410.
  response: {},
  errors: [DeprecatedPointsRouteError],
};

export const receiverAtBlock: Handler<typeof receiverAtBlockSchema> = async () => {
  throw new DeprecatedPointsRouteError();
};

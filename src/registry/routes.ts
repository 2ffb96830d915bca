// GET /entities/{networks,vaults,operators,curators} (spec §4.1): whole lists, served from per-generation
// pre-serialized JSON. Errors use the partner envelope (the server's error handler maps them).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../http/context.ts";
import { PartnerErrorSchema } from "../http/errors.ts";
import { preSerialized, RegistryResponses } from "./responses.ts";
import { PartnerCuratorListSchema, PartnerEntityListSchema, PartnerVaultListSchema } from "./schemas.ts";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

// `ooops` when the registry cannot be read; these routes take no input, so nothing else can fail.
const errorResponses = { 500: PartnerErrorSchema };

export const registryRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const responses = new RegistryResponses(context.database, context.clock);

  app.get(
    "/entities/networks",
    {
      schema: {
        tags: ["registries"],
        summary: "List networks",
        description: "Every network of the registry with its metadata, sorted by address.",
        response: { 200: PartnerEntityListSchema.describe("Networks"), ...errorResponses },
      },
    },
    async (_request, reply) =>
      reply.type(JSON_CONTENT_TYPE).send(preSerialized(await responses.networks.get())),
  );

  app.get(
    "/entities/vaults",
    {
      schema: {
        tags: ["registries"],
        summary: "List approved vaults",
        description: "Approved vaults only, with their on-chain fields and metadata, sorted by address.",
        response: { 200: PartnerVaultListSchema.describe("Approved vaults"), ...errorResponses },
      },
    },
    async (_request, reply) =>
      reply.type(JSON_CONTENT_TYPE).send(preSerialized(await responses.vaults.get())),
  );

  app.get(
    "/entities/operators",
    {
      schema: {
        tags: ["registries"],
        summary: "List operators",
        description: "Every operator of the registry with its metadata, sorted by address.",
        response: { 200: PartnerEntityListSchema.describe("Operators"), ...errorResponses },
      },
    },
    async (_request, reply) =>
      reply.type(JSON_CONTENT_TYPE).send(preSerialized(await responses.operators.get())),
  );

  app.get(
    "/entities/curators",
    {
      schema: {
        tags: ["registries"],
        summary: "List curators",
        description: "Every curator with its metadata and the approved vaults it curates, sorted by id.",
        response: { 200: PartnerCuratorListSchema.describe("Curators"), ...errorResponses },
      },
    },
    async (_request, reply) =>
      reply.type(JSON_CONTENT_TYPE).send(preSerialized(await responses.curators.get())),
  );
};

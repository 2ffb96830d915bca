// GET /entities/{networks,vaults,operators,curators} (spec §4.1): whole lists, served from bodies prepared once
// per dataset generation (with an ETag, and gzip/br on request). Errors use the partner envelope (the server's
// error handler maps them).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../http/context.ts";
import { PartnerErrorSchema } from "../http/errors.ts";
import { sendPreparedJson } from "./prepared-json.ts";
import { RegistryResponses } from "./responses.ts";
import { PartnerCuratorListSchema, PartnerEntityListSchema, PartnerVaultListSchema } from "./schemas.ts";

// These routes take no input: besides the list, a client gets 304 for an ETag it already has (If-None-Match),
// or `ooops` when the registry cannot be read.
const otherResponses = {
  304: z.null().describe("Not modified: the list still has the ETag given in If-None-Match"),
  500: PartnerErrorSchema,
};

export const registryRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const responses = new RegistryResponses(context.database, context.clock);

  app.get(
    "/entities/networks",
    {
      schema: {
        tags: ["registries"],
        summary: "List networks",
        description: "Every network of the registry with its metadata, sorted by address.",
        response: { 200: PartnerEntityListSchema.describe("Networks"), ...otherResponses },
      },
    },
    async (request, reply) => sendPreparedJson(request, reply, await responses.networks.get()),
  );

  app.get(
    "/entities/vaults",
    {
      schema: {
        tags: ["registries"],
        summary: "List approved vaults",
        description: "Approved vaults only, with their on-chain fields and metadata, sorted by address.",
        response: { 200: PartnerVaultListSchema.describe("Approved vaults"), ...otherResponses },
      },
    },
    async (request, reply) => sendPreparedJson(request, reply, await responses.vaults.get()),
  );

  app.get(
    "/entities/operators",
    {
      schema: {
        tags: ["registries"],
        summary: "List operators",
        description: "Every operator of the registry with its metadata, sorted by address.",
        response: { 200: PartnerEntityListSchema.describe("Operators"), ...otherResponses },
      },
    },
    async (request, reply) => sendPreparedJson(request, reply, await responses.operators.get()),
  );

  app.get(
    "/entities/curators",
    {
      schema: {
        tags: ["registries"],
        summary: "List curators",
        description: "Every curator with its metadata and the approved vaults it curates, sorted by id.",
        response: { 200: PartnerCuratorListSchema.describe("Curators"), ...otherResponses },
      },
    },
    async (request, reply) => sendPreparedJson(request, reply, await responses.curators.get()),
  );
};

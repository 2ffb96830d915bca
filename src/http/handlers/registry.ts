// GET /entities/{networks,vaults,operators,curators} (spec §4.1): whole lists, served from bodies prepared once per
// dataset generation (with an ETag, and gzip/br on request). Errors use the partner envelope.
import { z } from "zod";
import type { RegistryResponses } from "../../registry/responses.ts";
import {
  PartnerCuratorListSchema,
  PartnerEntityListSchema,
  PartnerVaultListSchema,
} from "../../registry/schemas.ts";
import { preparedRoute } from "../prepared-reply.ts";
import type { Handler } from "../route.ts";

// These routes take no input: besides the list, a client gets 304 for an ETag it already has (If-None-Match),
// or `ooops` when the registry cannot be read (route-answers.ts).
const otherResponses = {
  304: z.null().describe("Not modified: the list still has the ETag given in If-None-Match"),
};
const failures = { database: true } as const;

export const networksSchema = {
  tags: ["registries"],
  summary: "List networks",
  description: "Every network of the registry with its metadata, sorted by address.",
  response: { 200: PartnerEntityListSchema.describe("Networks"), ...otherResponses },
  ...failures,
};

export const vaultsSchema = {
  tags: ["registries"],
  summary: "List approved vaults",
  description: "Approved vaults only, with their on-chain fields and metadata, sorted by address.",
  response: { 200: PartnerVaultListSchema.describe("Approved vaults"), ...otherResponses },
  ...failures,
};

export const operatorsSchema = {
  tags: ["registries"],
  summary: "List operators",
  description: "Every operator of the registry with its metadata, sorted by address.",
  response: { 200: PartnerEntityListSchema.describe("Operators"), ...otherResponses },
  ...failures,
};

export const curatorsSchema = {
  tags: ["registries"],
  summary: "List curators",
  description: "Every curator with its metadata and the approved vaults it curates, sorted by id.",
  response: { 200: PartnerCuratorListSchema.describe("Curators"), ...otherResponses },
  ...failures,
};

export function networks(responses: RegistryResponses): Handler<typeof networksSchema> {
  return preparedRoute(responses.networks);
}

export function vaults(responses: RegistryResponses): Handler<typeof vaultsSchema> {
  return preparedRoute(responses.vaults);
}

export function operators(responses: RegistryResponses): Handler<typeof operatorsSchema> {
  return preparedRoute(responses.operators);
}

export function curators(responses: RegistryResponses): Handler<typeof curatorsSchema> {
  return preparedRoute(responses.curators);
}

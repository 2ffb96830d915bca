// The OpenAPI 3.1 document, generated from the routes' zod schemas (never written by hand).
import type { SwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { SWAP_ERROR_CODES } from "./errors.ts";

export const API_PREFIX = "/api/v1";
export const API_VERSION = "3.1.0";

/** The part of the document this module changes. */
interface WithComponentSchemas {
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The generator gives each component schema `$id: "#/components/schemas/<name>"`. A `$id` opens a new schema
 * resource, so standard tools (and the docs page) resolve the `$ref`s inside that component against the component
 * instead of the document, and fail. The components are parts of this document, not resources of their own: their
 * `$id`s are dropped, and the `$ref`s (`#/components/schemas/<name>`) resolve against the document as intended.
 */
export function withoutComponentIds<Document extends object>(document: Document): Document {
  const { components } = document as WithComponentSchemas;
  if (!components?.schemas) return document;
  const schemas = Object.fromEntries(
    Object.entries(components.schemas).map(([name, schema]) => {
      const { $id: _dropped, ...rest } = schema as Record<string, unknown>;
      return [name, rest];
    }),
  );
  return { ...document, components: { ...components, schemas } };
}

/** Marks a response schema whose body is not JSON: the document lists it under this media type. */
export const MEDIA_TYPE_KEY = "x-media-type";

/**
 * The generator lists every response under application/json. A response whose schema names another media type (the
 * order stream's text/event-stream) is listed under that one instead; the route's errors stay JSON.
 */
export function withMediaTypes<Document extends object>(document: Document): Document {
  const paths = (
    document as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> }
  ).paths;
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const content = (response as { content?: Record<string, { schema?: Record<string, unknown> }> })
          .content;
        const json = content?.["application/json"];
        const mediaType = json?.schema?.[MEDIA_TYPE_KEY];
        if (!content || !json?.schema || typeof mediaType !== "string") continue;
        const { [MEDIA_TYPE_KEY]: _marker, ...schema } = json.schema;
        delete content["application/json"];
        content[mediaType] = { ...json, schema };
      }
    }
  }
  return document;
}

export const openApiOptions: SwaggerOptions = {
  openapi: {
    openapi: "3.1.0",
    info: {
      title: "Sluice — Redemption Swap and Partner Points API",
      version: API_VERSION,
      description:
        "Registries and partner points, the quote / approval / order flow of redemption swaps, solver liquidity and signed discounts.",
    },
    servers: [{ url: API_PREFIX }],
    components: {
      schemas: {},
    },
    "x-error-codes": { swap: [...SWAP_ERROR_CODES] },
  } as never,
  transform: (input) => {
    const transformed = jsonSchemaTransform(input);
    // Paths are documented relative to the server URL, which already ends in /api/v1.
    return {
      ...transformed,
      url: transformed.url.startsWith(API_PREFIX)
        ? transformed.url.slice(API_PREFIX.length) || "/"
        : transformed.url,
    };
  },
  transformObject: (input) => withMediaTypes(withoutComponentIds(jsonSchemaTransformObject(input))),
};
